import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite(.timeLimit(.minutes(10))) struct LoaderDeduplicationTests {
    /// A response held after its first bytes until `gate` opens.
    static func held(_ body: Data, gate: LoopbackGate, after bytes: Int = 10) -> LoopbackHTTPResponse {
        var response = LoopbackHTTPResponse.ok(body)
        response.holdAfter = bytes
        response.gate = gate
        return response
    }

    /// Eight requests at once for one URL: one request reaches the server, and all eight
    /// get the one decoded image.
    @Test func eightConcurrentRequestsMakeOneDownload() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 64, delays: [10, 20, 30])
        // Held until all eight have asked, so none can find the image already cached.
        let gate = LoopbackGate()
        server.serve("banner.gif", Self.held(gif, gate: gate))
        let loader = LoadingFixture.loader()
        let url = server.url("banner.gif")
        let images = try await withThrowingTaskGroup(of: AnimatedImage.self) { group in
            for _ in 0..<8 { group.addTask { try await loader.image(for: url) } }
            try await LoadingFixture.wait { server.requestCount("banner.gif") >= 1 }
            try await Task.sleep(for: .milliseconds(200))
            gate.open()
            var all: [AnimatedImage] = []
            for try await image in group { all.append(image) }
            return all
        }
        #expect(images.count == 8)
        #expect(server.requestCount("banner.gif") == 1)
        #expect(images.allSatisfy { $0.data == gif && $0.info.frameCount == 3 })
        #expect(images[0].poster.pixel(x: 5, y: 5) == LoadingFixture.color(ofFrame: 0))
        #expect(loader.cachedImage(for: url)?.data == gif)
        // Once loaded, a ninth request is a memory-cache hit: still one request.
        _ = try await loader.image(for: url)
        #expect(server.requestCount("banner.gif") == 1)
    }

    /// One of two requests cancelled: it throws CancellationError at once, the other gets
    /// the image from the same, single download.
    @Test func cancellingOneOfTwoRequestsLeavesTheOther() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 32, delays: [10, 10])
        let gate = LoopbackGate()
        server.serve("big.gif", Self.held(gif, gate: gate))
        let loader = LoadingFixture.loader()
        let url = server.url("big.gif")
        let cancelled = Task { try await loader.image(for: url) }
        let kept = Task { try await loader.image(for: url) }
        try await LoadingFixture.wait { server.bodyBytesSent("big.gif") >= 10 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(!gate.isOpen)  // the cancelled one did not wait for the body
        gate.open()
        let image = try await kept.value
        #expect(image.data == gif)
        #expect(server.requestCount("big.gif") == 1)
    }

    /// Every request cancelled: the download stops (the client closes the connection
    /// while the server still holds the body), and a later request downloads anew.
    @Test func cancellingEveryRequestStopsTheDownload() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 32, delays: [10, 10])
        let gate = LoopbackGate()
        server.serve("big.gif", Self.held(gif, gate: gate))
        let loader = LoadingFixture.loader()
        let url = server.url("big.gif")
        let first = Task { try await loader.image(for: url) }
        let second = Task { try await loader.image(for: url) }
        try await LoadingFixture.wait { server.bodyBytesSent("big.gif") >= 10 }
        first.cancel()
        second.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        await #expect(throws: CancellationError.self) { try await second.value }
        try await LoadingFixture.wait { server.openConnectionCount == 0 }
        #expect(server.openConnectionCount == 0)
        #expect(server.bodyBytesSent("big.gif") == 10)
        #expect(loader.cachedImage(for: url) == nil)

        server.serve("big.gif", .ok(gif))
        #expect(try await loader.image(for: url).data == gif)
        #expect(server.requestCount("big.gif") == 2)
    }

    /// A request whose task is cancelled before it asks throws CancellationError and
    /// starts nothing.
    @Test func aRequestFromACancelledTaskThrowsAtOnce() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("a.gif", .ok(LoadingFixture.gif(delays: [10])))
        let loader = LoadingFixture.loader()
        let url = server.url("a.gif")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loader.image(for: url)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requestCount("a.gif") == 0)
    }

    /// `prefetch` fills the memory cache, one request per URL; a request afterwards makes
    /// none.
    @Test func prefetchWarmsTheCaches() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let names = ["p0.gif", "p1.gif", "p2.gif"]
        for (i, name) in names.enumerated() { server.serve(name, .ok(LoadingFixture.gif(delays: Array(repeating: 10, count: i + 1)))) }
        let loader = LoadingFixture.loader()
        await loader.prefetch(names.map(server.url)).value
        for (i, name) in names.enumerated() {
            #expect(loader.cachedImage(for: server.url(name))?.info.frameCount == i + 1)
            _ = try await loader.image(for: server.url(name))
            #expect(server.requestCount(name) == 1)
        }
    }

    /// Cancelling a prefetch stops its downloads that no one else waits for.
    @Test func cancellingAPrefetchStopsItsDownloads() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gate = LoopbackGate()
        server.serve("slow.gif", Self.held(LoadingFixture.gif(side: 32, delays: [10, 10]), gate: gate))
        let loader = LoadingFixture.loader()
        let prefetch = loader.prefetch([server.url("slow.gif")])
        try await LoadingFixture.wait { server.bodyBytesSent("slow.gif") >= 10 }
        prefetch.cancel()
        await prefetch.value
        try await LoadingFixture.wait { server.openConnectionCount == 0 }
        #expect(server.openConnectionCount == 0)
        #expect(loader.cachedImage(for: server.url("slow.gif")) == nil)
    }
}
