import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite struct LoaderMemoryCacheTests {
    /// An image's cost is its poster's bytes plus its encoded bytes.
    @Test func anImageCostsItsPosterPlusItsBytes() throws {
        let gif = LoadingFixture.gif(side: 100, delays: [10, 10])
        let image = try AnimatedImage(data: gif, registry: LoadingFixture.registry())
        #expect(image.cost == 100 * 100 * 4 + gif.count)
    }

    /// Three images where two fit: the least recently used goes, and "used" counts a
    /// `cachedImage(for:)` hit.
    @Test func theLeastRecentlyUsedImageIsEvictedByCost() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gifs = (0..<3).map { LoadingFixture.gif(side: 200, delays: Array(repeating: 10, count: $0 + 1)) }
        for (i, gif) in gifs.enumerated() { server.serve("\(i).gif", .ok(gif)) }
        let costs = try gifs.map { try AnimatedImage(data: $0, registry: LoadingFixture.registry()).cost }
        // Room for any two, not for three.
        let limit = costs.sorted().suffix(2).reduce(0, +)
        #expect(costs.reduce(0, +) > limit)
        let loader = LoadingFixture.loader(memory: limit)
        _ = try await loader.image(for: server.url("0.gif"))
        _ = try await loader.image(for: server.url("1.gif"))
        #expect(loader.cachedImage(for: server.url("0.gif")) != nil)  // 0 is now the most recently used
        _ = try await loader.image(for: server.url("2.gif"))
        #expect(loader.cachedImage(for: server.url("1.gif")) == nil)
        #expect(loader.cachedImage(for: server.url("0.gif"))?.data == gifs[0])
        #expect(loader.cachedImage(for: server.url("2.gif"))?.data == gifs[2])
        #expect(loader.memoryCacheUsage.count == 2)
        #expect(loader.memoryCacheUsage.cost == costs[0] + costs[2])
        // Evicted means downloaded again.
        _ = try await loader.image(for: server.url("1.gif"))
        #expect(server.requestCount("1.gif") == 2)
        #expect(server.requestCount("0.gif") == 1)
    }

    /// The count limit evicts too, least recently used first.
    @Test func theCountLimitEvictsTheLeastRecentlyUsed() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        for i in 0..<3 { server.serve("\(i).gif", .ok(LoadingFixture.gif(delays: [10]))) }
        let loader = AnimatedImageLoader(
            configuration: .init(
                memoryCacheLimit: 64 << 20, diskCache: nil, memoryCacheCountLimit: 2,
                registry: LoadingFixture.registry(), memoryPressure: nil))
        for i in 0..<3 { _ = try await loader.image(for: server.url("\(i).gif")) }
        #expect(loader.cachedImage(for: server.url("0.gif")) == nil)
        #expect(loader.cachedImage(for: server.url("1.gif")) != nil)
        #expect(loader.cachedImage(for: server.url("2.gif")) != nil)
    }

    /// An image costing more than the whole limit is returned but not kept.
    @Test func anImageLargerThanTheLimitIsNotKept() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("big.gif", .ok(LoadingFixture.gif(side: 100, delays: [10])))
        let loader = LoadingFixture.loader(memory: 1000)
        #expect(try await loader.image(for: server.url("big.gif")).info.frameCount == 1)
        #expect(loader.cachedImage(for: server.url("big.gif")) == nil)
        #expect(loader.memoryCacheUsage.count == 0)
    }

    /// Memory pressure at `.warning` empties the cache.
    @Test func memoryPressureEmptiesTheCache() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("a.gif", .ok(LoadingFixture.gif(delays: [10])))
        let signal = MemoryPressureSignal()
        let loader = AnimatedImageLoader(
            configuration: .init(
                memoryCacheLimit: 64 << 20, diskCache: nil,
                registry: LoadingFixture.registry(), memoryPressure: signal))
        _ = try await loader.image(for: server.url("a.gif"))
        #expect(loader.cachedImage(for: server.url("a.gif")) != nil)
        signal.send(.warning)
        #expect(loader.cachedImage(for: server.url("a.gif")) == nil)
        #expect(loader.memoryCacheUsage.count == 0)
    }

    /// `cachedImage(for:)` never asks the network.
    @Test func aCacheMissAsksNoOne() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("a.gif", .ok(LoadingFixture.gif(delays: [10])))
        let loader = LoadingFixture.loader()
        #expect(loader.cachedImage(for: server.url("a.gif")) == nil)
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requestCount("a.gif") == 0)
    }
}
