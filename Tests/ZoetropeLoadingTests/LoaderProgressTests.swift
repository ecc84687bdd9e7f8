import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite(.timeLimit(.minutes(10))) struct LoaderProgressTests {
    /// Progress grows with the bytes, knows the length, and ends at the whole body.
    @Test func progressReportsTheBytesAsTheyArrive() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 32, delays: [10, 10, 10], noise: true)
        // The server holds the second half until the first half has been reported, so at
        // least two reports come however the client's reads are grouped.
        let gate = LoopbackGate()
        var response = LoopbackHTTPResponse.ok(gif)
        response.holdAfter = gif.count / 2
        response.gate = gate
        server.serve("a.gif", response)
        let loader = LoadingFixture.loader()
        let seen = ProgressLog()
        let url = server.url("a.gif")
        let download = Task { try await loader.image(for: url) { seen.append($0) } }
        try await LoadingFixture.wait { seen.reports.last?.receivedBytes == gif.count / 2 }
        #expect(seen.reports.last?.receivedBytes == gif.count / 2)
        gate.open()
        let image = try await download.value
        #expect(image.data == gif)
        let reports = seen.reports
        #expect(reports.count >= 2)
        #expect(reports.allSatisfy { $0.expectedBytes == gif.count })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.receivedBytes < $1.receivedBytes })
        #expect(reports.last?.receivedBytes == gif.count)
        #expect(reports.last?.fraction == 1)
    }
}

/// Progress reports collected from the download's thread.
final class ProgressLog: Sendable {
    private let state = Locked<[LoadingProgress]>([])
    func append(_ progress: LoadingProgress) { state.withLock { $0.append(progress) } }
    var reports: [LoadingProgress] { state.withLock { $0 } }
}
