import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(10))) struct LoaderSessionConfigurationTests {
    /// The application's `URLSessionConfiguration` is the session's starting point: its
    /// extra headers reach the server. The loader works on a copy, so changing the
    /// configuration afterwards changes nothing, and Foundation's own cache stays off.
    @Test func theSessionStartsFromTheApplicationsConfiguration() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(delays: [10, 10])
        server.serve("a.gif", .ok(gif))
        server.serve("b.gif", .ok(gif))
        let session = URLSessionConfiguration.ephemeral
        session.httpAdditionalHeaders = ["X-Client": "zoetrope-test"]
        session.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        var configuration = AnimatedImageLoader.Configuration(
            memoryCacheLimit: 64 << 20, diskCache: nil, registry: LoadingFixture.registry(), memoryPressure: nil)
        configuration.sessionConfiguration = session
        let loader = AnimatedImageLoader(configuration: configuration)
        session.httpAdditionalHeaders = ["X-Client": "changed"]

        #expect(try await loader.image(for: server.url("a.gif")).data == gif)
        #expect(server.requests("a.gif").first?.header("X-Client") == "zoetrope-test")
        #expect(try await loader.image(for: ImageRequest(url: server.url("b.gif"), cachePolicy: .reloadIgnoringCache)).data == gif)
        #expect(try await loader.image(for: ImageRequest(url: server.url("b.gif"), cachePolicy: .reloadIgnoringCache)).data == gif)
        #expect(server.requestCount("b.gif") == 2)
    }
}
