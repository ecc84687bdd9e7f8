import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@testable import ZoetropeLoading

/// A 304 through the loader: the entry's header is rewritten in place, the body is not
/// written again (a `no-cache` response revalidated on every launch costs 4 KiB a launch).
@Suite struct DiskCacheRevalidationTests {
    @Test func a304WritesTheHeaderAlone() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 64, delays: [10, 20], noise: true)
        server.route("a.gif") { request in
            if request.header("If-None-Match") == "\"v1\"" {
                return LoopbackHTTPResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")])
            }
            return .ok(gif, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")])
        }
        let folder = try TemporaryFolder()
        let configuration = DiskCache.Configuration(folder: folder.url, sizeLimit: 64 << 20)
        let first = LoadingFixture.loader(disk: configuration)
        #expect(try await first.image(for: server.url("a.gif")).data == gif)
        #expect(try #require(first.diskCache).bytesWritten == DiskCacheMetadata.size + gif.count)
        let name = try #require(DiskCacheTestSupport.entryNames(folder.url).first)
        let inode = DiskCacheTestSupport.inode(folder.url.appendingPathComponent(name).path)
        for _ in 0..<2 {
            let next = LoadingFixture.loader(disk: configuration)
            #expect(try await next.image(for: server.url("a.gif")).data == gif)
            #expect(try #require(next.diskCache).bytesWritten == DiskCacheMetadata.size)
        }
        #expect(server.requests("a.gif").map { $0.header("If-None-Match") } == [nil, "\"v1\"", "\"v1\""])
        #expect(DiskCacheTestSupport.inode(folder.url.appendingPathComponent(name).path) == inode)
    }
}
