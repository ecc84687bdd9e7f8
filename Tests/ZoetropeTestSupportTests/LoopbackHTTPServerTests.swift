import Foundation
import Testing
import ZoetropeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback server the loading tests use: it answers HTTP clients with the routes it was
/// given, and counts what it was asked.
@Suite struct LoopbackHTTPServerTests {
    @Test func answersARouteAndCountsTheRequest() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = Data("hello, loopback".utf8)
        server.serve("/a.gif", .ok(body, headers: [(name: "ETag", value: "\"v1\"")]))
        var request = URLRequest(url: server.url("/a.gif"))
        request.setValue("\"v0\"", forHTTPHeaderField: "If-None-Match")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(data == body)
        #expect(server.requestCount("/a.gif") == 1)
        #expect(server.requests("/a.gif").first?.method == "GET")
        #expect(server.requests("/a.gif").first?.header("If-None-Match") == "\"v0\"")
        #expect(server.bodyBytesSent("/a.gif") == body.count)
    }

    @Test func answersAStatusAndAnUnknownPath() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("/gone", .status(410))
        let (_, gone) = try await URLSession.shared.data(from: server.url("/gone"))
        #expect((gone as? HTTPURLResponse)?.statusCode == 410)
        let (_, missing) = try await URLSession.shared.data(from: server.url("/nothing-here"))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        #expect(server.requestCount("/nothing-here") == 1)
    }
}
