import Foundation
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP responses kept in a folder across launches, least recently used removed past a
/// size limit: the disk cache of `AnimatedImageLoader`.
///
/// One file per URL: the body, then the validators (`ETag`, `Last-Modified`) and
/// freshness, then a checksummed footer. A file is written under a temporary name and
/// renamed into place, so a process killed while writing leaves at worst a temporary file
/// (removed later), never a torn entry; a file that is not a whole entry for its URL (cut,
/// corrupt, or not the cache's) is removed when met, never served. Reading maps the file,
/// so a hit hands the decoder the body without copying it. Several processes (or several
/// loaders) may share one folder: each sees what the others wrote, and "used" is the
/// file's modification time, which every hit updates.
public final class DiskCache: Sendable {
    /// The folder and size limit.
    public let configuration: Configuration
    private let state = Locked(State())

    private struct State {
        /// The folder was listed once: stray files removed, the size known.
        var scanned = false
        /// The bytes of the entries, as far as this instance knows (others may write too:
        /// passing the limit lists the folder again).
        var size = 0
        /// The last modification time this instance set, in microseconds, so that entries
        /// used in a row keep their order even within one tick of the file system's clock.
        var lastStamp: Int64 = 0
    }

    /// A cache in `configuration.folder` (created when first written).
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The bytes the entries take now (lists the folder).
    public var totalSize: Int {
        listEntries().reduce(0) { $0 + $1.size }
    }

    /// Removes the entry for `url`, if any.
    public func removeEntry(for url: URL) {
        unlink(path(for: url.absoluteString))
    }

    /// Removes every file in the folder.
    public func removeAll() {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: configuration.folder.path)) ?? [] {
            unlink(configuration.folder.appendingPathComponent(name).path)
        }
        state.withLock { $0.size = 0 }
    }

    /// The entry for `url` when a whole one is on disk; marks it used. A file in its place
    /// that is not a whole entry for `url` is removed.
    func entry(for url: String) -> DiskCacheEntry? {
        let path = path(for: url)
        guard access(path, F_OK) == 0 else { return nil }
        guard let file = try? AnimatedImage.fileData(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        guard let entry = DiskCacheEntry(file: file, url: url) else {
            unlink(path)
            return nil
        }
        touch(path)
        return entry
    }

    /// Removes the entry for `url` (its body did not decode: it is not served again).
    func remove(url: String) {
        unlink(path(for: url))
    }

    /// Writes `entry` in place of any earlier one, atomically; then removes least recently
    /// used entries while the folder is over the limit. Returns false when it was not kept
    /// (larger than the limit alone, or the folder cannot be written).
    @discardableResult
    func store(_ entry: DiskCacheEntry) -> Bool {
        let trailer = entry.trailer()
        let total = entry.body.count + trailer.count
        let final = path(for: entry.url)
        guard total <= configuration.sizeLimit else {
            unlink(final)
            return false
        }
        prepareFolder()
        let temp = configuration.folder.appendingPathComponent(
            ".\(fileName(for: entry.url)).\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
        ).path
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let written = entry.body.withUnsafeBytes { Self.writeAll(fd, $0) } && trailer.withUnsafeBytes { Self.writeAll(fd, $0) }
        guard close(fd) == 0, written else {
            unlink(temp)
            return false
        }
        var old = stat()
        let replaced = stat(final, &old) == 0 ? Int(old.st_size) : 0
        touch(temp)
        guard rename(temp, final) == 0 else {
            unlink(temp)
            return false
        }
        let over = state.withLock { s -> Bool in
            s.size += total - replaced
            return s.size > configuration.sizeLimit
        }
        if over { evict(keeping: final) }
        return true
    }

    /// The file of `url`'s entry.
    func path(for url: String) -> String {
        configuration.folder.appendingPathComponent(fileName(for: url)).path
    }

    /// 32 hex digits (two FNV-1a hashes of the URL) and `.entry`. The URL itself is in the
    /// entry and checked on every read, so a collision is a miss, never a wrong image.
    private func fileName(for url: String) -> String {
        var a = FNV1a(), b = FNV1a(seed: 0x6c62_272e_07bb_0142)
        a.add(url.utf8)
        b.add(url.utf8.reversed())
        func hex(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return hex(a.value) + hex(b.value) + ".entry"
    }

    /// Creates the folder and, once per instance, lists it: removes what is not a whole
    /// entry and temporary files left by a process that died writing, and learns the size.
    private func prepareFolder() {
        guard
            state.withLock({ s -> Bool in
                defer { s.scanned = true }
                return !s.scanned
            })
        else { return }
        try? FileManager.default.createDirectory(at: configuration.folder, withIntermediateDirectories: true)
        let entries = listEntries(validating: true)
        let size = entries.reduce(0) { $0 + $1.size }
        let over = state.withLock { s -> Bool in
            s.size = size
            return size > configuration.sizeLimit
        }
        if over { evict(keeping: nil) }
    }

    private struct Listed {
        var path: String
        var size: Int
        var used: Date
    }

    /// The entries in the folder. With `validating`, also removes every file that is not a
    /// whole entry, and temporary files older than ten minutes (a live writer finishes
    /// long before).
    private func listEntries(validating: Bool = false) -> [Listed] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: configuration.folder, includingPropertiesForKeys: keys,
                options: [])) ?? []
        var listed: [Listed] = []
        for file in files {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let name = file.lastPathComponent, path = file.path
            let used = values.contentModificationDate ?? .distantPast
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                if validating, used.timeIntervalSinceNow < -600 { unlink(path) }
                continue
            }
            if validating {
                guard name.hasSuffix(".entry"), let file = try? AnimatedImage.fileData(contentsOf: file),
                    let entry = DiskCacheEntry(file: file, url: nil), path == self.path(for: entry.url)
                else {
                    unlink(path)
                    continue
                }
            } else if !name.hasSuffix(".entry") {
                continue
            }
            listed.append(Listed(path: path, size: values.fileSize ?? 0, used: used))
        }
        return listed
    }

    /// Removes least recently used entries until the folder is within the limit, never
    /// the one at `kept` (just written).
    private func evict(keeping kept: String?) {
        let entries = listEntries().sorted { ($0.used, $0.path) < ($1.used, $1.path) }
        var size = entries.reduce(0) { $0 + $1.size }
        for entry in entries where size > configuration.sizeLimit && entry.path != kept {
            if unlink(entry.path) == 0 || errno == ENOENT { size -= entry.size }
        }
        state.withLock { $0.size = size }
    }

    /// Marks the file at `path` used now (its modification time), later than any file
    /// this instance marked before.
    private func touch(_ path: String) {
        var now = timeval()
        gettimeofday(&now, nil)
        let stamp = state.withLock { s -> Int64 in
            s.lastStamp = max(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_usec), s.lastStamp + 1)
            return s.lastStamp
        }
        let time = timeval(tv_sec: .init(stamp / 1_000_000), tv_usec: .init(stamp % 1_000_000))
        var times = [time, time]
        _ = utimes(path, &times)
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
