import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs
import ZoetropeTestSupport

/// Bodies past `diskStreamingThreshold` go to the disk cache's folder as they arrive,
/// outside the in-flight budget; the rest stay in memory, inside it.
@Suite(.timeLimit(.minutes(2))) struct LoaderSpoolTests {
    let gif = LoadingFixture.gif(side: 400, delays: Array(repeating: 10, count: 8), noise: true)

    func pieces(_ data: Data) -> [Data] {
        stride(from: 0, to: data.count, by: 8192).map { data.subdata(in: $0..<min(data.count, $0 + 8192)) }
    }

    func loader(_ transport: ScriptedTransport, _ folder: TemporaryFolder) -> AnimatedImageLoader {
        RuleFixture.loader(transport, disk: DiskCache.Configuration(folder: folder.url, sizeLimit: 8 << 20)) {
            $0.diskStreamingThreshold = 32 << 10
            $0.maximumResponseBytesInFlight = 64 << 10
        }
    }

    /// A body four times the in-flight budget loads, because past the threshold it is on
    /// disk, not in memory: the image is the whole file, the entry serves a new loader
    /// offline, and no temporary file is left.
    @Test func aLargeKeepableBodyIsSpooledOutsideTheBudget() async throws {
        #expect(gif.count > 4 * (64 << 10))
        let folder = try TemporaryFolder()
        let chunks = pieces(gif)
        let transport = ScriptedTransport { _ in .init(status: 200, headers: ["Cache-Control": "max-age=600"], chunks: chunks) }
        let url = RuleFixture.url("big.gif")
        #expect(try await loader(transport, folder).image(for: url).data == gif)
        var offline = ImageRequest(url: url)
        offline.cachePolicy = .cacheOnly
        #expect(try await loader(transport, folder).image(for: offline).data == gif)
        #expect(transport.requests.count == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.filter { $0.hasSuffix(".tmp") } == [])
        #expect(names.filter { $0.hasSuffix(".entry") }.count == 1)
    }

    /// The same body with `no-store` may not touch the disk: it stays in memory and stops
    /// at the in-flight budget, leaving nothing in the folder.
    @Test func anUnkeepableBodyStaysInMemoryAndInsideTheBudget() async throws {
        let folder = try TemporaryFolder()
        let chunks = pieces(gif)
        let transport = ScriptedTransport { _ in .init(status: 200, headers: ["Cache-Control": "no-store"], chunks: chunks) }
        let url = RuleFixture.url("secret.gif")
        await #expect(throws: AnimatedImageError.responseBudgetExceeded(url: url.absoluteString, limit: 64 << 10)) {
            try await loader(transport, folder).image(for: url)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
        #expect(names.filter { !$0.hasPrefix(".zoetrope-cache") } == [])
    }

    /// A spooled download that fails midway leaves no temporary file behind.
    @Test func aSpooledDownloadThatFailsLeavesNothing() async throws {
        let folder = try TemporaryFolder()
        let chunks = Array(pieces(gif).prefix(10))
        let transport = ScriptedTransport { _ in
            .init(status: 200, headers: ["Cache-Control": "max-age=600"], chunks: chunks, error: URLError(.networkConnectionLost))
        }
        await #expect(throws: AnimatedImageError.self) { try await loader(transport, folder).image(for: RuleFixture.url("cut.gif")) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
        #expect(names.filter { $0.hasSuffix(".tmp") || $0.hasSuffix(".entry") } == [])
    }
}
