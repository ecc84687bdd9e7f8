import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs
import ZoetropeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loader's HTTP rules (RFC 9111 freshness and validation, redirects, status codes) and
/// bounds, over a transport that needs no socket and a clock the test moves.
@Suite(.timeLimit(.minutes(2))) struct LoaderRuleTests {
    let gif = LoadingFixture.gif(delays: [10, 10])

    /// A response is served from the disk cache while `max-age` says it is fresh; once
    /// stale, the request is conditional on its validators, and a 304 keeps the body with
    /// the 304's new lifetime.
    @Test func freshnessThenValidationThenA304() async throws {
        let folder = try TemporaryFolder()
        let disk = DiskCache.Configuration(folder: folder.url, sizeLimit: 8 << 20)
        let clock = RuleClock()
        let gif = self.gif
        let transport = ScriptedTransport { request in
            if request.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"" {
                return .init(status: 304, headers: ["Cache-Control": "max-age=100", "ETag": "\"v1\""])
            }
            return .ok(gif, ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "Last-Modified": "Mon, 07 Dec 2026 10:00:00 GMT"])
        }
        let url = RuleFixture.url("a.gif")
        #expect(try await RuleFixture.loader(transport, disk: disk, clock: clock).image(for: url).data == gif)
        clock.advance(by: 59)
        #expect(try await RuleFixture.loader(transport, disk: disk, clock: clock).image(for: url).data == gif)
        #expect(transport.requests.count == 1)
        clock.advance(by: 2)
        #expect(try await RuleFixture.loader(transport, disk: disk, clock: clock).image(for: url).data == gif)
        let conditional = try #require(transport.requests.last)
        #expect(transport.requests.count == 2)
        #expect(conditional.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        #expect(conditional.value(forHTTPHeaderField: "If-Modified-Since") == "Mon, 07 Dec 2026 10:00:00 GMT")
        clock.advance(by: 99)
        #expect(try await RuleFixture.loader(transport, disk: disk, clock: clock).image(for: url).data == gif)
        #expect(transport.requests.count == 2)
    }

    /// `no-store` is never written; `no-cache` is kept but asked about on every use.
    @Test func noStoreIsNotKeptAndNoCacheIsAlwaysValidated() async throws {
        let folder = try TemporaryFolder()
        let disk = DiskCache.Configuration(folder: folder.url, sizeLimit: 8 << 20)
        let gif = self.gif
        let transport = ScriptedTransport { request in
            if request.url?.lastPathComponent == "secret.gif" { return .ok(gif, ["Cache-Control": "no-store, max-age=600"]) }
            if request.value(forHTTPHeaderField: "If-None-Match") != nil { return .init(status: 304, headers: ["ETag": "\"n\""]) }
            return .ok(gif, ["Cache-Control": "no-cache", "ETag": "\"n\""])
        }
        for _ in 0..<3 {
            _ = try await RuleFixture.loader(transport, disk: disk).image(for: RuleFixture.url("secret.gif"))
            _ = try await RuleFixture.loader(transport, disk: disk).image(for: RuleFixture.url("nocache.gif"))
        }
        #expect(transport.paths == Array(repeating: ["/secret.gif", "/nocache.gif"], count: 3).flatMap { $0 })
        #expect(transport.requests.filter { $0.value(forHTTPHeaderField: "If-None-Match") == "\"n\"" }.count == 2)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".entry") }
        #expect(written.count == 1)
    }

    /// A 301 and a 308 are the resource's new home: the final response is kept under the
    /// URL asked for. A 302, 303 or 307 without a lifetime of its own is not (RFC 9111 §3);
    /// with one, it is.
    @Test(arguments: [(301, false, 0), (308, false, 0), (302, false, 1), (303, false, 1), (307, false, 1), (302, true, 0)])
    func redirectsAreKeptOnlyWhenPermanentOrFresh(status: Int, freshRedirect: Bool, laterRequests: Int) async throws {
        let folder = try TemporaryFolder()
        let disk = DiskCache.Configuration(folder: folder.url, sizeLimit: 8 << 20)
        let gif = self.gif
        let transport = ScriptedTransport { request in
            guard request.url?.lastPathComponent == "old.gif" else { return .ok(gif, ["Cache-Control": "max-age=600"]) }
            var headers = ["Location": "/new.gif"]
            if freshRedirect { headers["Cache-Control"] = "max-age=600" }
            return .init(status: status, headers: headers)
        }
        let url = RuleFixture.url("old.gif")
        #expect(try await RuleFixture.loader(transport, disk: disk).image(for: url).data == gif)
        #expect(transport.paths == ["/old.gif", "/new.gif"])
        #expect(try await RuleFixture.loader(transport, disk: disk).image(for: url).data == gif)
        #expect(transport.requests.count == 2 + laterRequests * 2)
    }

    /// A redirect without `Location` is the server's answer, not the image; past the
    /// redirect limit the load fails naming it.
    @Test func aRedirectWithoutLocationAndTooManyRedirects() async throws {
        let transport = ScriptedTransport { request in
            let name = request.url?.lastPathComponent ?? ""
            if name == "nowhere.gif" { return .init(status: 302, chunks: [Data("GIF89a".utf8)]) }
            let hop = Int(name.dropFirst(3).dropLast(4)) ?? 0
            return .init(status: 302, headers: ["Location": "/hop\(hop + 1).gif"])
        }
        let loader = RuleFixture.loader(transport) { $0.maximumRedirects = 3 }
        let nowhere = RuleFixture.url("nowhere.gif")
        await #expect(throws: AnimatedImageError.httpStatus(url: nowhere.absoluteString, status: 302)) {
            try await loader.image(for: nowhere)
        }
        let hops = RuleFixture.url("hop0.gif")
        await #expect(throws: AnimatedImageError.tooManyRedirects(url: hops.absoluteString, limit: 3)) {
            try await loader.image(for: hops)
        }
        #expect(transport.paths.suffix(4) == ["/hop0.gif", "/hop1.gif", "/hop2.gif", "/hop3.gif"])
    }

    /// The body is bounded whatever the server says: a `Content-Length` over the limit is
    /// refused before a byte is kept, a shorter body than it promised is a truncation, and
    /// a body without a length stops at the limit.
    @Test func bodiesAreBoundedWhateverTheServerSays() async throws {
        let limit = 64 << 10
        let transport = ScriptedTransport { request in
            switch request.url?.lastPathComponent {
            case "declared.gif": .init(status: 200, headers: ["Content-Length": "\(1 << 30)"], chunks: [Data(count: 4096)])
            case "short.gif": .init(status: 200, headers: ["Content-Length": "1000"], chunks: [Data(count: 500)])
            default: .init(status: 200, chunks: [Data(count: 10_000)], endless: true)
            }
        }
        let loader = RuleFixture.loader(transport) { $0.maximumResponseBytes = limit }
        let declared = RuleFixture.url("declared.gif").absoluteString
        await #expect(throws: AnimatedImageError.responseTooLarge(url: declared, size: 1 << 30, limit: limit)) {
            try await loader.image(for: RuleFixture.url("declared.gif"))
        }
        #expect(transport.deliveredBytes == 0)
        let short = RuleFixture.url("short.gif").absoluteString
        await #expect(throws: AnimatedImageError.truncatedResponse(url: short, received: 500, expected: 1000)) {
            try await loader.image(for: RuleFixture.url("short.gif"))
        }
        let endless = RuleFixture.url("endless.gif").absoluteString
        await #expect(throws: AnimatedImageError.responseTooLarge(url: endless, size: limit + 1, limit: limit)) {
            try await loader.image(for: RuleFixture.url("endless.gif"))
        }
        #expect(transport.deliveredBytes - 500 <= limit)
    }

    /// The configuration's modifier runs first, the request's after it; a modifier that
    /// throws fails the load with its error and nothing is sent.
    @Test func requestModifiersRunInOrder() async throws {
        struct Refused: Error, Equatable {}
        let gif = self.gif
        let transport = ScriptedTransport { _ in .ok(gif) }
        let loader = RuleFixture.loader(transport) { configuration in
            configuration.requestModifier = { request in
                var request = request
                request.setValue("loader", forHTTPHeaderField: "X-Who")
                request.setValue("Bearer demo", forHTTPHeaderField: "Authorization")
                return request
            }
        }
        var request = ImageRequest(url: RuleFixture.url("a.gif"))
        request.requestModifier = { request in
            var request = request
            request.setValue("request", forHTTPHeaderField: "X-Who")
            return request
        }
        _ = try await loader.image(for: request)
        let sent = try #require(transport.requests.first)
        #expect(sent.value(forHTTPHeaderField: "X-Who") == "request")
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer demo")

        var refused = ImageRequest(url: RuleFixture.url("b.gif"))
        refused.requestModifier = { _ in throw Refused() }
        await #expect(throws: Refused.self) { try await loader.image(for: refused) }
        #expect(transport.paths == ["/a.gif"])
    }

    /// With one download at a time, waiting downloads start by priority, and a priority
    /// changed while they wait moves them, up or down.
    @Test func prioritiesOrderTheQueueAndChangeWhileWaiting() async throws {
        let gif = self.gif
        let gate = LoopbackGate()
        let transport = ScriptedTransport { request in
            if request.url?.lastPathComponent == "first.gif" {
                while !gate.isOpen { usleep(1000) }
            }
            return .ok(gif)
        }
        let loader = RuleFixture.loader(transport) { $0.maximumConcurrentDownloads = 1 }
        func request(_ name: String, _ priority: ImageRequest.Priority) -> ImageRequest {
            var request = ImageRequest(url: RuleFixture.url(name))
            request.priority = priority
            return request
        }
        let first = Task { try await loader.image(for: request("first.gif", .normal)) }
        try await LoadingFixture.wait { transport.requests.count == 1 }
        let names: [(String, ImageRequest.Priority)] = [("low.gif", .low), ("normal.gif", .normal), ("high.gif", .high)]
        var tasks: [Task<AnimatedImage, any Error>] = []
        for (name, priority) in names {
            let request = request(name, priority)
            tasks.append(Task { try await loader.image(for: request) })
        }
        try await LoadingFixture.wait { loader.queueCounts.waiting == 3 }
        loader.setPriority(.veryHigh, for: request("low.gif", .low))
        loader.setPriority(.veryLow, for: request("high.gif", .high))
        gate.open()
        _ = try await first.value
        for task in tasks { _ = try await task.value }
        #expect(transport.paths == ["/first.gif", "/low.gif", "/normal.gif", "/high.gif"])
    }

    /// A transfer that never ends fails at the loader's deadline, naming it; a transport
    /// error is typed.
    @Test func theDeadlineAndTransportErrors() async throws {
        let transport = ScriptedTransport { request in
            if request.url?.lastPathComponent == "refused.gif" { return .init(status: 200, error: URLError(.cannotConnectToHost)) }
            return .init(status: 200, chunks: [Data("GIF8".utf8)], stalls: true)
        }
        let loader = RuleFixture.loader(transport) { $0.deadline = .milliseconds(300) }
        let slow = RuleFixture.url("slow.gif").absoluteString
        let seconds = loader.configuration.deadline.secondsValue
        await #expect(throws: AnimatedImageError.deadlineExceeded(url: slow, seconds: seconds)) {
            try await loader.image(for: RuleFixture.url("slow.gif"))
        }
        let error = await #expect(throws: AnimatedImageError.self) { try await loader.image(for: RuleFixture.url("refused.gif")) }
        guard case .unreadable(let location, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(location == RuleFixture.url("refused.gif").absoluteString)
    }

    /// `.cacheOnly` answers from memory or disk and never asks the transport.
    @Test func cacheOnlyNeverAsks() async throws {
        let transport = ScriptedTransport { _ in .ok(Data()) }
        let loader = RuleFixture.loader(transport)
        var request = ImageRequest(url: RuleFixture.url("a.gif"))
        request.cachePolicy = .cacheOnly
        await #expect(throws: AnimatedImageError.notCached(url: RuleFixture.url("a.gif").absoluteString)) {
            try await loader.image(for: request)
        }
        #expect(transport.requests.isEmpty)
    }
}
