import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

/// The disk cache across loaders: a second loader on the same folder stands for a second
/// process (or the app after a relaunch): it shares nothing with the first but the folder.
@Suite struct LoaderDiskCacheTests {
    static func disk(_ folder: TemporaryFolder, limit: Int = 64 << 20) -> DiskCache.Configuration {
        .init(folder: folder.url, sizeLimit: limit)
    }

    static func entries(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".entry") }.sorted()
    }

    /// `max-age=600`: a second loader on the folder makes no request.
    @Test func aFreshEntryServesASecondLoaderWithoutARequest() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 16, delays: [10, 20])
        server.serve("a.gif", .ok(gif, headers: [("Cache-Control", "public, max-age=600")]))
        let folder = try TemporaryFolder()
        let first = LoadingFixture.loader(disk: Self.disk(folder))
        #expect(try await first.image(for: server.url("a.gif")).data == gif)
        let second = LoadingFixture.loader(disk: Self.disk(folder))
        let image = try await second.image(for: server.url("a.gif"))
        #expect(image.data == gif)
        #expect(image.info.frameCount == 2)
        #expect(server.requestCount("a.gif") == 1)
        #expect(try Self.entries(folder).count == 1)
    }

    /// A stale entry with an ETag: the next loader asks with If-None-Match, a 304 keeps
    /// the entry and its new max-age makes it fresh again (a third loader asks nothing).
    @Test func aStaleEntryIsRevalidatedAndA304KeepsIt() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 16, delays: [10, 20, 30])
        server.route("a.gif") { request in
            if request.header("If-None-Match") == "\"v1\"" {
                return LoopbackHTTPResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=600")])
            }
            return .ok(gif, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=0")])
        }
        let folder = try TemporaryFolder()
        _ = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
        let second = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
        #expect(second.data == gif)
        #expect(second.info.frameCount == 3)
        let requests = server.requests("a.gif")
        #expect(requests.count == 2)
        #expect(requests.first?.header("If-None-Match") == nil)
        #expect(requests.last?.header("If-None-Match") == "\"v1\"")
        let third = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
        #expect(third.data == gif)
        #expect(server.requestCount("a.gif") == 2)
    }

    /// `no-cache` with Last-Modified: kept, but every use asks If-Modified-Since first.
    @Test func noCacheRevalidatesEveryUseWithLastModified() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 16, delays: [10])
        let modified = "Tue, 01 Dec 2026 10:00:00 GMT"
        server.route("a.gif") { request in
            if request.header("If-Modified-Since") == modified { return LoopbackHTTPResponse(status: 304) }
            return .ok(gif, headers: [("Last-Modified", modified), ("Cache-Control", "no-cache")])
        }
        let folder = try TemporaryFolder()
        for _ in 0..<3 {
            #expect(try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif")).data == gif)
        }
        let requests = server.requests("a.gif")
        #expect(requests.map { $0.header("If-Modified-Since") } == [nil, modified, modified])
    }

    /// A changed resource: the conditional request gets a 200 with the new body, which
    /// replaces the entry.
    @Test func aChangedResourceReplacesTheEntry() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let old = LoadingFixture.gif(side: 16, delays: [10])
        let new = LoadingFixture.gif(side: 16, delays: [10, 10])
        server.serve("a.gif", .ok(old, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")]))
        let folder = try TemporaryFolder()
        _ = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
        server.serve("a.gif", .ok(new, headers: [("ETag", "\"v2\""), ("Cache-Control", "max-age=600")]))
        #expect(try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif")).data == new)
        #expect(try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif")).data == new)
        #expect(server.requests("a.gif").map { $0.header("If-None-Match") } == [nil, "\"v1\""])
    }

    /// `no-store` is never written; a response without lifetime or validators neither.
    @Test func noStoreAndUnrevalidatableResponsesAreNotKept() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("private.gif", .ok(LoadingFixture.gif(delays: [10]), headers: [("Cache-Control", "no-store, max-age=600")]))
        server.serve("plain.gif", .ok(LoadingFixture.gif(delays: [10])))
        let folder = try TemporaryFolder()
        for _ in 0..<2 {
            let loader = LoadingFixture.loader(disk: Self.disk(folder))
            _ = try await loader.image(for: server.url("private.gif"))
            _ = try await loader.image(for: server.url("plain.gif"))
        }
        #expect(server.requestCount("private.gif") == 2)
        #expect(server.requestCount("plain.gif") == 2)
        #expect(try Self.entries(folder).isEmpty)
    }

    /// An entry file cut short (a torn write), overwritten with garbage, or with one bit
    /// of its metadata changed (caught by the checksum alone) is never served: the URL is
    /// downloaded again and its entry replaces the file. A foreign file in the folder is
    /// left alone (the cache touches only what it wrote).
    @Test func aCorruptEntryIsReplacedAndAForeignFileIsKept() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 16, delays: [10, 20])
        server.serve("a.gif", .ok(gif, headers: [("Cache-Control", "max-age=600")]))
        let folder = try TemporaryFolder()
        _ = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
        let name = try #require(try Self.entries(folder).first)
        let file = folder.url.appendingPathComponent(name)
        let whole = try Data(contentsOf: file)
        // A bit of the stored lifetime (header bytes 40–47): a change the metadata still parses with.
        let lifetime = 40
        let damaged: [Data] = [
            whole.prefix(whole.count / 2),  // torn
            Data(repeating: 0x5A, count: whole.count),  // garbage
            {
                var d = whole; d[lifetime] ^= 0x01; return d
            }(),  // max-age 600 read as another number
            Data(),  // empty
        ]
        for (i, bytes) in damaged.enumerated() {
            try bytes.write(to: file)
            let image = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
            #expect(image.data == gif, "case \(i)")
            #expect(server.requestCount("a.gif") == i + 2, "case \(i)")
            #expect(try Data(contentsOf: file).dropFirst(4096) == gif, "case \(i): the entry was written again")
        }
        // A foreign file stays when a loader writes to the folder and when it is emptied.
        let foreign = folder.url.appendingPathComponent("notes.txt")
        try Data("not an entry".utf8).write(to: foreign)
        server.serve("b.gif", .ok(gif, headers: [("Cache-Control", "max-age=600")]))
        let last = LoadingFixture.loader(disk: Self.disk(folder))
        _ = try await last.image(for: server.url("b.gif"))
        #expect(try Data(contentsOf: foreign) == Data("not an entry".utf8))
        #expect(try Self.entries(folder).count == 2)
        try #require(last.diskCache).removeAll()
        #expect(try Self.entries(folder).isEmpty)
        #expect(try Data(contentsOf: foreign) == Data("not an entry".utf8))
    }

    /// An entry whose body changed (caught by the body's checksum before it is decoded) is
    /// not served: the URL is downloaded again.
    @Test func anEntryWhoseBodyChangedIsDownloadedAgain() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 16, delays: [10, 20])
        server.serve("a.gif", .ok(gif, headers: [("Cache-Control", "max-age=600")]))
        let folder = try TemporaryFolder()
        _ = try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif"))
        let file = folder.url.appendingPathComponent(try #require(try Self.entries(folder).first))
        var bytes = try Data(contentsOf: file)
        bytes[4096] = 0x00  // the body's first byte (after the 4 KiB header): no longer "GIF8"
        try bytes.write(to: file)
        #expect(try await LoadingFixture.loader(disk: Self.disk(folder)).image(for: server.url("a.gif")).data == gif)
        #expect(server.requestCount("a.gif") == 2)
    }

    /// Over the size limit, the least recently used entry goes (a read counts as a use).
    @Test func theLeastRecentlyUsedEntryIsEvictedBySize() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gifs = (0..<3).map { LoadingFixture.gif(side: 64, delays: Array(repeating: 10, count: $0 + 1), noise: true) }
        for (i, gif) in gifs.enumerated() { server.serve("\(i).gif", .ok(gif, headers: [("Cache-Control", "max-age=600")])) }
        let folder = try TemporaryFolder()
        // Room for the two largest entries with their 4 KiB headers, not for three.
        let limit = gifs[1].count + gifs[2].count + 2 * 4096
        #expect(gifs.reduce(0) { $0 + $1.count + 4096 } > limit)
        // No memory cache: every request below reads the disk.
        let loader = LoadingFixture.loader(memory: 0, disk: Self.disk(folder, limit: limit))
        _ = try await loader.image(for: server.url("0.gif"))
        _ = try await loader.image(for: server.url("1.gif"))
        _ = try await loader.image(for: server.url("0.gif"))  // 0 is now the most recently used
        _ = try await loader.image(for: server.url("2.gif"))
        // Eviction waits for the cache's listing of the folder, on a thread of its own.
        try await LoadingFixture.wait(upTo: 30) { (try? Self.entries(folder).count) == 2 }
        #expect(try Self.entries(folder).count == 2)
        let next = LoadingFixture.loader(memory: 0, disk: Self.disk(folder, limit: limit))
        for i in [0, 2, 1] { _ = try await next.image(for: server.url("\(i).gif")) }
        #expect(server.requestCount("0.gif") == 1)
        #expect(server.requestCount("2.gif") == 1)
        #expect(server.requestCount("1.gif") == 2)
        let disk = try #require(loader.diskCache)
        try await LoadingFixture.wait(upTo: 30) { disk.totalSize <= limit }
        #expect(disk.totalSize <= limit)
    }

    /// The disk cache's folder can be emptied; the loader then downloads again.
    @Test func removeAllEmptiesTheFolder() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("a.gif", .ok(LoadingFixture.gif(delays: [10]), headers: [("Cache-Control", "max-age=600")]))
        let folder = try TemporaryFolder()
        let loader = LoadingFixture.loader(memory: 0, disk: Self.disk(folder))
        _ = try await loader.image(for: server.url("a.gif"))
        try #require(loader.diskCache).removeAll()
        #expect(try Self.entries(folder).isEmpty)
        _ = try await loader.image(for: server.url("a.gif"))
        #expect(server.requestCount("a.gif") == 2)
    }
}
