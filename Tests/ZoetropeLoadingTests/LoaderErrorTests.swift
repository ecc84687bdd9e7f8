import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite(.timeLimit(.minutes(10))) struct LoaderErrorTests {
    /// A 404 names the URL and the status, in one line.
    @Test func aMissingImageNamesTheStatus() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let loader = LoadingFixture.loader()
        let url = server.url("missing.gif")
        await #expect(throws: AnimatedImageError.httpStatus(url: url.absoluteString, status: 404)) {
            try await loader.image(for: url)
        }
        do {
            _ = try await loader.image(for: url)
        } catch {
            #expect(error.localizedDescription == "\(url.absoluteString): the server answered HTTP 404 (Not Found)")
        }
        #expect(loader.cachedImage(for: url) == nil)
    }

    /// A body shorter than its Content-Length is a typed truncation, not a decode error.
    @Test func aBodyCutShortIsATruncatedResponse() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 32, delays: [10, 10, 10], noise: true)
        var response = LoopbackHTTPResponse.ok(gif)
        response.closeAfter = gif.count / 2
        server.serve("cut.gif", response)
        let loader = LoadingFixture.loader()
        let url = server.url("cut.gif")
        await #expect(
            throws: AnimatedImageError.truncatedResponse(
                url: url.absoluteString, received: gif.count / 2,
                expected: gif.count)
        ) {
            try await loader.image(for: url)
        }
        #expect(
            AnimatedImageError.truncatedResponse(url: "u", received: 5, expected: 9).description
                == "u: the response ended after 5 of the 9 bytes its Content-Length announced")
    }

    /// A Content-Length over the limit is refused from the head: the server holds the
    /// body back (until the client leaves), so reading it would have run into the timeout.
    @Test func aContentLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var response = LoopbackHTTPResponse.ok(Data(repeating: 7, count: 50_000))
        response.holdAfter = 0
        server.serve("huge.gif", response)
        let loader = LoadingFixture.loader(timeout: .seconds(600), maximumResponseBytes: 10_000)
        let url = server.url("huge.gif")
        await #expect(throws: AnimatedImageError.responseTooLarge(url: url.absoluteString, size: 50_000, limit: 10_000)) {
            try await loader.image(for: url)
        }
        #expect(server.bodyBytesSent("huge.gif") == 0)
        try await LoadingFixture.wait { server.openConnectionCount == 0 }
        #expect(server.openConnectionCount == 0)
    }

    /// Without a Content-Length the limit is checked as bytes arrive: the transfer stops at
    /// the first piece past it. (The server sends 50,000 bytes, then holds the rest until the
    /// client leaves, so the test does not depend on how fast the client reads.)
    @Test func aBodyPastTheLimitWithoutAContentLengthStops() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var response = LoopbackHTTPResponse.ok(Data(repeating: 7, count: 400_000))
        response.sendsContentLength = false
        response.holdAfter = 50_000
        server.serve("endless.gif", response)
        let loader = LoadingFixture.loader(maximumResponseBytes: 10_000)
        let url = server.url("endless.gif")
        do {
            _ = try await loader.image(for: url)
            Issue.record("no error")
        } catch let AnimatedImageError.responseTooLarge(location, size, limit) {
            #expect(location == url.absoluteString)
            #expect(limit == 10_000)
            #expect(size == 10_001)  // past the limit: what arrived beyond it was never kept
        }
        try await LoadingFixture.wait { server.openConnectionCount == 0 }
        #expect(server.openConnectionCount == 0)
        #expect(server.bodyBytesSent("endless.gif") == 50_000)
    }

    /// A server that stops sending hits the timeout, named with the URL.
    @Test func aStalledServerTimesOut() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 32, delays: [10, 10], noise: true)
        var response = LoopbackHTTPResponse.ok(gif)
        response.holdAfter = 100  // and never more
        server.serve("stall.gif", response)
        let loader = LoadingFixture.loader(timeout: .seconds(1))
        let url = server.url("stall.gif")
        await #expect(throws: AnimatedImageError.timedOut(url: url.absoluteString, seconds: 1)) {
            try await loader.image(for: url)
        }
        #expect(AnimatedImageError.timedOut(url: "u", seconds: 1).description == "u: timed out: no data from the server for 1 s")
        try await LoadingFixture.wait { server.openConnectionCount == 0 }
        #expect(server.openConnectionCount == 0)
    }

    /// Redirects are followed up to the limit, and one more is an error.
    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(delays: [10, 10])
        server.serve("image.gif", .ok(gif))
        server.serve("r1", .status(302, headers: [("Location", server.url("r2").absoluteString)]))
        server.serve("r2", .status(301, headers: [("Location", "/image.gif")]))
        server.serve("loop", .status(302, headers: [("Location", "/loop")]))
        #expect(try await LoadingFixture.loader(maximumRedirects: 2).image(for: server.url("r1")).data == gif)
        await #expect(throws: AnimatedImageError.tooManyRedirects(url: server.url("r1").absoluteString, limit: 1)) {
            try await LoadingFixture.loader(maximumRedirects: 1).image(for: server.url("r1"))
        }
        await #expect(throws: AnimatedImageError.tooManyRedirects(url: server.url("loop").absoluteString, limit: 3)) {
            try await LoadingFixture.loader(maximumRedirects: 3).image(for: server.url("loop"))
        }
        #expect(server.requestCount("loop") == 4)
    }

    /// Bytes no coder recognises are the decoder's error; a refused connection says why.
    @Test func unrecognisedContentAndARefusedConnection() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("page.gif", .ok(Data("<html>hello</html>".utf8), headers: [("Content-Type", "text/html")]))
        let loader = LoadingFixture.loader()
        await #expect(throws: AnimatedImageError.unrecognizedFormat(prefix: Array("<html>hello</html>".utf8.prefix(16)))) {
            try await loader.image(for: server.url("page.gif"))
        }
        let closed = try LoopbackHTTPServer()
        let url = closed.url("a.gif")
        closed.stop()
        do {
            _ = try await loader.image(for: url)
            Issue.record("no error")
        } catch let AnimatedImageError.unreadable(location, reason) {
            #expect(location == url.absoluteString)
            #expect(!reason.isEmpty)
        }
    }

    /// A player request fails with the same errors.
    @MainActor @Test func aPlayerRequestFailsWithTheSameError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let loader = LoadingFixture.loader()
        let url = server.url("missing.gif")
        await #expect(throws: AnimatedImageError.httpStatus(url: url.absoluteString, status: 404)) {
            try await loader.player(for: url, display: RecordingView())
        }
    }
}
