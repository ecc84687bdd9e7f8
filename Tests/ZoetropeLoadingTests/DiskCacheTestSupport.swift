import Foundation
import Zoetrope

@testable import ZoetropeLoading

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the disk cache's own tests share: entries built in code, and a bound on each call
/// that could block (a regression then fails the test instead of hanging the run).
enum DiskCacheTestSupport {
    /// An entry for `url` with `count` bytes of body (a pattern that depends on the URL).
    static func entry(_ url: String, bytes count: Int, etag: String = "\"v1\"", now: Double = 1_800_000_000) -> DiskCacheEntry {
        var body = Data(count: count)
        let seed = UInt8(truncatingIfNeeded: url.utf8.reduce(0) { $0 &+ Int($1) })
        for i in 0..<count { body[i] = UInt8(truncatingIfNeeded: i &* 31) &+ seed }
        let policy = HTTPCachePolicy(headers: ["cache-control": "max-age=600", "etag": etag], now: now)
        return DiskCacheEntry(url: url, body: body, policy: policy, now: now)
    }

    /// `body`'s result, or nil when it has not returned within `seconds` (it is left running
    /// on its own thread). The bound is for a hang, far above the time the call takes.
    static func within<T: Sendable>(_ seconds: Double = 60, _ body: @escaping @Sendable () -> T) -> T?? {
        let result = Locked<T??>(nil)
        let done = DispatchSemaphore(value: 0)
        NativeThread.detach(name: "disk-test") {
            let value = body()
            result.withLock { $0 = .some(value) }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    /// Waits up to `seconds` for the cache's listing of the folder.
    static func waitForScan(_ cache: DiskCache, seconds: Double = 60) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !cache.isScanned, ContinuousClock.now < deadline { usleep(2000) }
        return cache.isScanned
    }

    /// The file names in `folder` that are entries' names.
    static func entryNames(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(DiskCacheName.isEntry).sorted()
    }

    /// Writes `bytes` over part of the file at `path`, in place.
    static func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) {
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
    }

    /// The inode of the file at `path` (not following a link).
    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }
}
