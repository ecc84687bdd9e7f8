import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@testable import ZoetropeLoading

/// A hostile server on loopback: every answer here is one no honest server sends. Each
/// ends in one typed error (or the image), within its deadline, holding no more than its
/// bound, never a signal. Each connection of the server stops by itself within 30 s.
@Suite(.timeLimit(.minutes(5))) struct LoaderHostileServerTests {
    static func loader(
        timeout: Duration = .seconds(20), deadline: Duration = .seconds(60), maximumResponseBytes: Int = 1 << 20,
        inFlight: Int = 256 << 20, disk: DiskCache.Configuration? = nil
    ) -> AnimatedImageLoader {
        var configuration = AnimatedImageLoader.Configuration(
            memoryCacheLimit: 64 << 20, diskCache: disk, registry: LoadingFixture.registry(), timeout: timeout,
            memoryPressure: nil)
        configuration.deadline = deadline
        configuration.maximumResponseBytes = maximumResponseBytes
        configuration.maximumResponseBytesInFlight = inFlight
        return AnimatedImageLoader(configuration: configuration)
    }

    static let gif = LoadingFixture.gif(side: 8, delays: [10, 10])

    /// Dates whose year is past any integer a naive parser survives: the image loads, the
    /// headers read as no date at all.
    @Test func datesFromTheFarFutureDoNotTrap() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let date = "Sun, 06 Nov 999999999999 08:49:37 GMT"
        server.serve(
            "far.gif", .ok(Self.gif, headers: [("Date", date), ("Expires", date), ("Last-Modified", date), ("ETag", "\"e\"")]))
        let folder = try TemporaryFolder()
        let loader = Self.loader(disk: .init(folder: folder.url, sizeLimit: 1 << 20))
        #expect(try await loader.image(for: server.url("far.gif")).info.frameCount == 2)
        #expect(HTTPDate.parse(date) == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 10000 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 9999 08:49:37 GMT") == 253_397_494_177)
    }

    /// Every caching header with bytes no server should send: parsed without a trap, read
    /// as RFC 9111 says (an invalid max-age is stale; an overflowing one is 2^31 s).
    @Test func cachingHeadersOfAnyBytesParse() {
        let now = 1_764_000_000.0
        let huge = String(repeating: "9", count: 400)
        let policy = HTTPCachePolicy(headers: ["Cache-Control": "max-age=\(huge)", "Age": huge], now: now)
        #expect(policy.lifetime == 0)  // 2^31 − 2^31
        #expect(HTTPCachePolicy(headers: ["Cache-Control": "max-age=\(huge)"], now: now).lifetime == 2_147_483_648)
        #expect(HTTPCachePolicy(headers: ["Cache-Control": "max-age=-5"], now: now).lifetime == 0)
        #expect(HTTPCachePolicy(headers: ["Cache-Control": "max-age=1e400"], now: now).lifetime == 0)
        #expect(HTTPCachePolicy(headers: ["Cache-Control": "max-age=nan"], now: now).lifetime == 0)
        #expect(HTTPCachePolicy(headers: ["Cache-Control": "max-age=\"60\""], now: now).lifetime == 60)
        let junk = ["", ",,,", "=", "max-age", "max-age=", String(repeating: "a=", count: 10_000), "\u{0}\u{FFFF}"]
        for value in junk {
            for name in ["Cache-Control", "Age", "Expires", "Date", "Last-Modified", "ETag", "Vary", "Pragma"] {
                _ = HTTPCachePolicy(headers: [name: value], now: now).isStorable
            }
        }
        #expect(HTTPDeltaSeconds.parse(" 42 ") == 42)
        #expect(HTTPDeltaSeconds.parse("4 2") == nil)
        #expect(HTTPDeltaSeconds.parse("+42") == nil)
    }

    /// A body that never ends stops at `maximumResponseBytes`, with or without chunked
    /// coding, and a lying or absent Content-Length changes nothing.
    @Test(arguments: [false, true]) func anEndlessBodyStopsAtTheLimit(chunked: Bool) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveEndless("endless.gif", headers: chunked ? [] : ["Content-Length: 100"], chunked: chunked)
        let url = server.url("endless.gif")
        let loader = Self.loader(maximumResponseBytes: 1 << 20)
        if chunked {
            await #expect(throws: AnimatedImageError.responseTooLarge(url: url.absoluteString, size: (1 << 20) + 1, limit: 1 << 20)) {
                try await loader.image(for: url)
            }
        } else {
            // The client reads the 100 bytes it was promised: a GIF header's worth of "G"s.
            await #expect(throws: AnimatedImageError.self) { try await loader.image(for: url) }
        }
        #expect(loader.context.budget.inUse == 0)
        // A chunked body is abandoned mid-way: the connection closes. (A response that ended
        // at its Content-Length may stay in the client's pool of connections.)
        if chunked { try await LoadingFixture.wait(upTo: 60) { server.openConnectionCount == 0 } }
    }

    /// A gzip body that inflates far past the limit stops at the limit of inflated bytes.
    @Test func aCompressionBombStopsAtTheLimit() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let bomb = GzipBomb.make(inflatedBytes: 64 << 20)
        #expect(bomb.count < 600_000)
        server.serve("bomb.gif", .ok(bomb, headers: [("Content-Encoding", "gzip")]))
        let url = server.url("bomb.gif")
        let loader = Self.loader(maximumResponseBytes: 1 << 20)
        do {
            _ = try await loader.image(for: url)
            Issue.record("a bomb decoded")
        } catch let error as AnimatedImageError {
            // Inflated by the transfer: the limit stops it. Not inflated: its bytes are no image.
            switch error {
            case .responseTooLarge(_, let size, let limit): #expect(size == limit + 1)
            case .unrecognizedFormat: break
            default: Issue.record("\(error)")
            }
        }
        #expect(loader.context.budget.inUse == 0)
    }

    /// Downloads in flight share one budget: while one holds 3.5 MiB (its server stalls
    /// there), a second stops where the two together would pass 6 MiB, though each is under
    /// its own 4 MiB limit; everything held is given back when they end.
    @Test func concurrentDownloadsShareOneBudget() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var held = LoopbackHTTPResponse.ok(Data(repeating: 0x47, count: 8 << 20))
        held.sendsContentLength = false
        held.holdAfter = 3_670_016  // 3.5 MiB, then nothing until the client leaves
        server.serve("held.gif", held)
        server.serveEndless("endless.gif", chunk: 16 << 10)
        let loader = Self.loader(maximumResponseBytes: 4 << 20, inFlight: 6 << 20)
        let first = Task { try await loader.image(for: server.url("held.gif")) }
        try await LoadingFixture.wait { loader.context.budget.inUse == 3_670_016 }
        #expect(loader.context.budget.inUse == 3_670_016)
        let url = server.url("endless.gif")
        await #expect(throws: AnimatedImageError.responseBudgetExceeded(url: url.absoluteString, limit: 6 << 20)) {
            try await loader.image(for: url)
        }
        #expect(loader.context.budget.inUse == 3_670_016)
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        try await LoadingFixture.wait { loader.context.budget.inUse == 0 }
        #expect(loader.context.budget.inUse == 0)
        #expect(
            AnimatedImageError.responseBudgetExceeded(url: "u", limit: 6).description
                == "u: the downloads in flight together passed their budget of 6 bytes (maximumResponseBytesInFlight)")
    }

    /// A byte every 100 ms never trips the inactivity timeout; the deadline ends it.
    @Test func aSteadyTrickleMeetsTheDeadline() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // Bytes after the GIF's trailer are ignored by a decoder: 30 s of them at this pace.
        let body = Self.gif + Data(repeating: 0, count: 300)
        server.serveTrickle(
            "drip.gif", head: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)", body: body, bytes: 1,
            every: .milliseconds(100))
        let url = server.url("drip.gif")
        let loader = Self.loader(timeout: .seconds(5), deadline: .milliseconds(1500))
        await #expect(throws: AnimatedImageError.deadlineExceeded(url: url.absoluteString, seconds: 1.5)) {
            try await loader.image(for: url)
        }
        #expect(
            AnimatedImageError.deadlineExceeded(url: "u", seconds: 1.5).description
                == "u: the download did not finish within its deadline of 1.5 s")
    }

    /// A server that accepts and says nothing is "no response", not "no data".
    @Test func aSilentServerIsNoResponse() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // Silent until the loader gives up and closes: on a machine so busy that the
        // loader's watch cannot run, that is later than usual, never the server's doing.
        server.routeRaw("silent.gif", bound: .seconds(240)) { _, connection in _ = connection.pause(.seconds(240)) }
        let url = server.url("silent.gif")
        let loader = Self.loader(timeout: .seconds(1))
        await #expect(throws: AnimatedImageError.noResponse(url: url.absoluteString, seconds: 1)) {
            try await loader.image(for: url)
        }
        #expect(
            AnimatedImageError.noResponse(url: "u", seconds: 1).description
                == "u: timed out: no response from the server within 1 s")
    }

    /// A head cut short by a closed connection is an error of this load, not the end of the
    /// process (as it is under FoundationNetworking's URLSession).
    @Test func aHeadCutShortIsAnError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveRaw("cut.gif", Data("HTTP/1.1 200 OK\r\nX-A: b".utf8))
        let url = server.url("cut.gif")
        let reason = "the connection closed before the response head was complete"
        await #expect(throws: AnimatedImageError.unreadable(location: url.absoluteString, reason: reason)) {
            try await Self.loader().image(for: url)
        }
    }

    /// A head that never ends is cut at 256 KiB, whatever the pace of its lines.
    @Test func anEndlessHeadStopsAtItsBound() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.routeRaw("fields.gif") { _, connection in
            guard connection.write("HTTP/1.1 200 OK\r\n") else { return }
            let line = "X-Pad: " + String(repeating: "a", count: 400) + "\r\n"
            while connection.write(String(repeating: line, count: 20)) {}
        }
        let url = server.url("fields.gif")
        await #expect(throws: AnimatedImageError.unreadable(location: url.absoluteString, reason: "the response head is over 256 KiB")) {
            try await Self.loader().image(for: url)
        }
    }

    /// Interim heads (103 Early Hints) come before the final one and are not the response.
    @Test func anInterimHeadIsSkipped() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let head = "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: \(Self.gif.count)\r\n\r\n"
        server.serveRaw("hints.gif", Data(head.utf8) + Self.gif)
        #expect(try await Self.loader().image(for: server.url("hints.gif")).info.frameCount == 2)
    }

    /// Bytes that are no HTTP response at all are one typed error.
    @Test func aReplyThatIsNotHTTPIsAnError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveRaw("junk.gif", Data("SSH-2.0-OpenSSH_9.2\r\n\r\n".utf8) + Self.gif)
        let url = server.url("junk.gif")
        do {
            _ = try await Self.loader().image(for: url)
            Issue.record("a reply that is not HTTP loaded")
        } catch let AnimatedImageError.unreadable(location, reason) {
            #expect(location == url.absoluteString)
            #expect(!reason.isEmpty)
        }
    }

    /// A redirect without `Location` is not the image, whatever its body.
    @Test func aRedirectWithoutLocationIsAnHTTPStatus() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveRaw("moved.gif", Data("HTTP/1.1 302 Found\r\nContent-Length: \(Self.gif.count)\r\n\r\n".utf8) + Self.gif)
        let url = server.url("moved.gif")
        await #expect(throws: AnimatedImageError.httpStatus(url: url.absoluteString, status: 302)) {
            try await Self.loader().image(for: url)
        }
    }

    /// A 302 is temporary: its target's response is not kept under the original URL (a
    /// later load asks again); a 301 is permanent, and is.
    @Test(arguments: [(302, 2), (307, 2), (301, 1)])
    func aTemporaryRedirectIsNotCachedUnderTheOriginalURL(status: Int, requests: Int) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("target.gif", .ok(Self.gif, headers: [("Cache-Control", "max-age=600")]))
        server.serve("start.gif", LoopbackHTTPResponse(status: status, headers: [("Location", "/target.gif")]))
        let folder = try TemporaryFolder()
        let disk = DiskCache.Configuration(folder: folder.url, sizeLimit: 1 << 20)
        for _ in 0..<2 {
            #expect(try await Self.loader(disk: disk).image(for: server.url("start.gif")).info.frameCount == 2)
        }
        #expect(server.requestCount("start.gif") == requests)
    }

    /// `AnimatedImage.load(from:)` goes through a loader: the same limit, the same error
    /// (a length over 64 MiB is refused from the head).
    @Test func loadFromIsBounded() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.routeRaw("huge.gif") { _, connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\nGIF89a") else { return }
            _ = connection.pause(.seconds(30))
        }
        let url = server.url("huge.gif")
        await #expect(throws: AnimatedImageError.responseTooLarge(url: url.absoluteString, size: 100_000_000, limit: 64 << 20)) {
            try await AnimatedImage.load(from: url, registry: LoadingFixture.registry())
        }
    }
}
