import Foundation
import Testing
import Zoetrope

@testable import ZoetropeLoading

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk cache against the real file system: what it serves, what it refuses, what it
/// writes.
@Suite struct DiskCacheTests {
    typealias Support = DiskCacheTestSupport

    static func cache(_ folder: TemporaryFolder, limit: Int = 64 << 20, hooks: DiskCacheHooks = .init()) -> DiskCache {
        DiskCache(configuration: .init(folder: folder.url, sizeLimit: limit), hooks: hooks)
    }

    @Test func anEntryIsReadBackWhole() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(folder)
        let entry = Support.entry("https://example.com/a.gif", bytes: 10_000)
        #expect(cache.store(entry))
        let read = try #require(cache.entry(for: "https://example.com/a.gif"))
        #expect(read.body == entry.body)
        #expect(read.metadata == entry.metadata)
        #expect(cache.entry(for: "https://example.com/b.gif") == nil)
        let path = cache.path(DiskCacheName.entry(for: entry.url))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == DiskCacheMetadata.size + 10_000)
    }

    /// A FIFO named like an entry: a miss at once, never opened; a store of that URL fails
    /// and leaves the FIFO.
    @Test func aFIFONamedLikeAnEntryIsAMissAtOnce() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(folder)
        let url = "https://example.com/fifo.gif"
        let path = cache.path(DiskCacheName.entry(for: url))
        #expect(mkfifo(path, 0o644) == 0)
        #expect(Support.within { cache.entry(for: url) == nil } == true)
        #expect(Support.within { cache.store(Support.entry(url, bytes: 100)) } == false)
        #expect(Support.within { cache.updateMetadata(of: Support.entry(url, bytes: 100)) } == false)
        #expect(Support.within { cache.removeEntry(for: URL(string: url)!) } != nil)
        #expect(DiskCacheFile.status(path).map { $0.st_mode & S_IFMT == S_IFIFO } == true)
    }

    /// A symbolic link named like an entry, to a whole entry for its URL outside the folder:
    /// never followed (a miss), and its target's bytes and modification time stay.
    @Test func aSymbolicLinkNamedLikeAnEntryIsNotFollowed() throws {
        let folder = try TemporaryFolder(), outside = try TemporaryFolder()
        let url = "https://example.com/link.gif"
        let target = outside.url.appendingPathComponent("elsewhere.entry")
        let entry = Support.entry(url, bytes: 500)
        let bytes = try #require(entry.file())
        try bytes.write(to: target)
        let cache = Self.cache(folder)
        let link = cache.path(DiskCacheName.entry(for: url))
        #expect(symlink(target.path, link) == 0)
        let before = try #require(DiskCacheFile.status(target.path))
        #expect(cache.entry(for: url) == nil)
        #expect(!cache.store(entry))
        #expect(!cache.updateMetadata(of: entry))
        cache.removeEntry(for: URL(string: url)!)
        cache.removeAll()
        let after = try #require(DiskCacheFile.status(target.path))
        #expect(DiskCacheFile.stamp(of: after) == DiskCacheFile.stamp(of: before))
        #expect(try Data(contentsOf: target) == bytes)
        #expect(DiskCacheFile.status(link).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
    }

    /// An entry cut short is a miss (and stays: it is not provably the cache's); the next
    /// store of its URL replaces it.
    @Test func aTruncatedEntryIsAMiss() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(folder)
        let entry = Support.entry("https://example.com/a.gif", bytes: 50_000)
        #expect(cache.store(entry))
        let path = cache.path(DiskCacheName.entry(for: entry.url))
        #expect(truncate(path, off_t(DiskCacheMetadata.size + 1000)) == 0)
        #expect(cache.entry(for: entry.url) == nil)
        #expect(DiskCacheFile.status(path)?.st_size == off_t(DiskCacheMetadata.size + 1000))
        #expect(cache.store(entry))
        #expect(cache.entry(for: entry.url)?.body == entry.body)
    }

    /// Another process cutting the file after it was opened and checked, before its body is
    /// read: a short read, a miss, never a crash (the file is read, not mapped).
    @Test func anEntryCutWhileReadIsAMiss() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(
            folder,
            hooks: .init(beforeBodyRead: { path in
                _ = truncate(path, off_t(DiskCacheMetadata.size + 10))
            }))
        let entry = Support.entry("https://example.com/a.gif", bytes: 200_000)
        #expect(cache.store(entry))
        #expect(cache.entry(for: entry.url) == nil)
    }

    /// One changed byte of the body: the checksum in the header catches it before the body
    /// is served.
    @Test func aChangedBodyIsAMiss() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(folder)
        let entry = Support.entry("https://example.com/a.gif", bytes: 30_000)
        #expect(cache.store(entry))
        let path = cache.path(DiskCacheName.entry(for: entry.url))
        let original = entry.body[12_345]
        Support.overwrite(path, at: DiskCacheMetadata.size + 12_345, with: [original ^ 0x10])
        #expect(cache.entry(for: entry.url) == nil)
        Support.overwrite(path, at: DiskCacheMetadata.size + 12_345, with: [original])
        #expect(cache.entry(for: entry.url)?.body == entry.body)
    }

    /// A URL too long for the 4 KiB header is not stored (nothing is written).
    @Test func metadataThatDoesNotFitIsNotStored() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(folder)
        let url = "https://example.com/" + String(repeating: "a", count: 5000)
        #expect(!cache.store(Support.entry(url, bytes: 10)))
        #expect(Support.entryNames(folder.url).isEmpty)
        #expect(cache.bytesWritten == 0)
    }

    /// A 304: one write of the 4 KiB header in place (the same file, the body not written
    /// again), and the new validators and freshness are read back with the same body.
    @Test func a304RewritesTheHeaderOnly() throws {
        let folder = try TemporaryFolder()
        let cache = Self.cache(folder)
        let entry = Support.entry("https://example.com/a.gif", bytes: 1 << 20)
        #expect(cache.store(entry))
        #expect(cache.bytesWritten == DiskCacheMetadata.size + (1 << 20))
        let path = cache.path(DiskCacheName.entry(for: entry.url))
        let inode = Support.inode(path)
        let stale = try #require(cache.entry(for: entry.url))
        let policy = HTTPCachePolicy(headers: ["cache-control": "max-age=60", "etag": "\"v2\""], now: 1_900_000_000)
        let refreshed = stale.revalidated(with: policy, now: 1_900_000_000)
        #expect(cache.updateMetadata(of: refreshed))
        #expect(cache.bytesWritten == 2 * DiskCacheMetadata.size + (1 << 20))
        #expect(Support.inode(path) == inode)
        let read = try #require(cache.entry(for: entry.url))
        #expect(read.etag == "\"v2\"")
        #expect(read.metadata.storedAt == 1_900_000_000)
        #expect(read.metadata.lifetime == 60)
        #expect(read.body == entry.body)
        // Another body in the file since it was read: nothing written.
        #expect(cache.store(Support.entry(entry.url, bytes: 1 << 20, etag: "\"v3\"", now: 1).with(firstByte: entry.body[0] ^ 0xff)))
        let written = cache.bytesWritten
        #expect(!cache.updateMetadata(of: refreshed))
        #expect(cache.bytesWritten == written)
    }

    /// Temporary files of crashed writes: a dead writer's, and a live one's older than ten
    /// minutes, are removed by the next open's scan; a live writer's recent one stays and
    /// counts against the size limit (here it makes the older of two entries go).
    @Test func crashedTemporaryFilesAreRemovedAndLiveOnesCounted() throws {
        let folder = try TemporaryFolder()
        let key = String(repeating: "ab", count: 16)
        let dead = ".zoetrope-\(key).2000000000-0123456789abcdef.tmp"  // above any pid_max
        let old = ".zoetrope-\(key).1-0123456789abcdee.tmp"  // pid 1 lives, but 11 minutes old
        let live = ".zoetrope-\(key).1-0123456789abcdef.tmp"
        for name in [dead, old, live] {
            try Data(count: 10_000).write(to: folder.url.appendingPathComponent(name))
        }
        var eleven = [timeval(tv_sec: time(nil) - 660, tv_usec: 0), timeval(tv_sec: time(nil) - 660, tv_usec: 0)]
        #expect(utimes(folder.url.appendingPathComponent(old).path, &eleven) == 0)
        // Two entries of 7,096 bytes and the live file's 10,000 pass 20,000; the entries alone do not.
        let cache = Self.cache(folder, limit: 20_000)
        #expect(cache.entry(for: "https://example.com/none") == nil)  // starts the scan
        #expect(Support.waitForScan(cache))
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? [])
        #expect(!names.contains(dead))
        #expect(!names.contains(old))
        #expect(names.contains(live))
        let a = Support.entry("https://example.com/a.gif", bytes: 3000)
        let b = Support.entry("https://example.com/b.gif", bytes: 3000)
        #expect(cache.store(a))
        #expect(cache.store(b))
        #expect(cache.entry(for: a.url) == nil)
        #expect(cache.entry(for: b.url)?.body == b.body)
    }

    /// The first store does not wait for the listing of the folder: with the scan held at
    /// its start, a store returns, and only adds up (nothing evicted); once the scan is in,
    /// the folder is brought within the limit.
    @Test func theFirstStoreDoesNotWaitForTheScan() throws {
        let folder = try TemporaryFolder()
        let filler = Self.cache(folder)
        for i in 0..<20 { #expect(filler.store(Support.entry("https://example.com/\(i)", bytes: 1000))) }
        let gate = DispatchSemaphore(value: 0)
        let held = Locked(false)
        let limit = 10 * (DiskCacheMetadata.size + 1000)
        let cache = Self.cache(
            folder, limit: limit,
            hooks: .init(beforeScan: {
                held.withLock { $0 = true }
                gate.wait()
            }))
        let stored = Support.within { cache.store(Support.entry("https://example.com/new", bytes: 1000)) }
        #expect(stored == true)
        #expect(!cache.isScanned)
        let deadline = ContinuousClock.now + .seconds(60)
        while !held.withLock({ $0 }), ContinuousClock.now < deadline { usleep(2000) }
        #expect(held.withLock { $0 }, "the scan runs on its own thread, held at its start")
        #expect(Support.entryNames(folder.url).count == 21)
        gate.signal()
        #expect(Support.waitForScan(cache))
        #expect(Support.entryNames(folder.url).count == 10)
        #expect(cache.entry(for: "https://example.com/new") != nil)
        #expect(cache.totalSize <= limit)
    }
}

extension DiskCacheEntry {
    /// The entry with its body's first byte replaced (and its checksum to match).
    fileprivate func with(firstByte: UInt8) -> DiskCacheEntry {
        var body = self.body
        body[body.startIndex] = firstByte
        var metadata = self.metadata
        metadata.bodyChecksum = body.withUnsafeBytes { StripeHash64.hash($0) }
        return DiskCacheEntry(metadata: metadata, body: body)
    }
}
