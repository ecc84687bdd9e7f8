import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite(.timeLimit(.minutes(2))) struct LoaderProgressTests {
    /// Progress grows with the bytes, knows the length, and ends at the whole body.
    @Test func progressReportsTheBytesAsTheyArrive() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 32, delays: [10, 10, 10], noise: true)
        server.serve("a.gif", LoopbackHTTPResponse.ok(gif).trickled(gif.count / 8 + 1, every: .milliseconds(10)))
        let loader = LoadingFixture.loader()
        let seen = ProgressLog()
        let image = try await loader.image(for: server.url("a.gif")) { seen.append($0) }
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
