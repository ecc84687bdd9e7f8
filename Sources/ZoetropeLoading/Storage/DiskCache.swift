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
/// The folder may be any folder, the user's own included: the cache opens, renames over and
/// removes only files named as its own (`zoetrope-<32 hex digits>.entry`, and
/// `.zoetrope-…tmp` while writing), never follows a symbolic link, never opens a FIFO or a
/// device, and removes only files that prove to be whole entries. Everything else in the
/// folder is left as it is. The first write leaves a small marker file, `.zoetrope-cache`.
///
/// One file per URL: a 4 KiB header (the URL, validators, freshness, the body's length and
/// checksum, the header's own checksum), then the body. A file is written under a temporary
/// name and renamed into place, so a process killed while writing leaves at worst a
/// temporary file (removed at a later open once its process is gone), never a torn entry;
/// a file that is not a whole entry for its URL (cut, changed, or not the cache's) is a
/// miss, never served. Several processes (or loaders) may share one folder: each sees what
/// the others wrote, and "used" is the file's modification time, which every hit updates.
/// Each instance learns the folder's size by listing it once, on a thread of its own.
public final class DiskCache: Sendable {
    /// The folder and size limit.
    public let configuration: Configuration
    let hooks: DiskCacheHooks
    let state = Locked(DiskCacheIndex())

    /// A cache in `configuration.folder` (created when first written).
    public convenience init(configuration: Configuration) {
        self.init(configuration: configuration, hooks: DiskCacheHooks())
    }

    init(configuration: Configuration, hooks: DiskCacheHooks) {
        self.configuration = configuration
        self.hooks = hooks
    }

    /// The bytes the entries take now (lists the folder and reads each entry's header).
    public var totalSize: Int {
        listing().entries.reduce(0) { total, name in total + (validEntrySize(name) ?? 0) }
    }

    /// Removes the entry for `url`, if any.
    public func removeEntry(for url: URL) {
        remove(url: url.absoluteString)
    }

    /// Bytes this instance wrote to the folder (headers and bodies).
    var bytesWritten: Int { state.withLock { $0.bytesWritten } }

    /// The entry for `url` when a whole one is on disk; marks it used.
    func entry(for url: String) -> DiskCacheEntry? {
        defer { startScan() }  // after this call's own work: the listing does not compete with it
        let name = DiskCacheName.entry(for: url)
        let path = self.path(name)
        guard let file = DiskCacheFile.openRegular(path) else { return nil }
        defer { file.close() }
        guard let metadata = header(of: file), metadata.url == url else { return nil }
        hooks.beforeBodyRead?(path)
        guard let body = Self.readBody(of: file, metadata: metadata) else { return nil }
        let stamp = markUsed(file)
        state.withLock { $0.set(name, .init(size: file.size, used: stamp)) }
        return DiskCacheEntry(metadata: metadata, body: body)
    }

    /// Removes the entry for `url` when the file under its name is one.
    func remove(url: String) {
        defer { startScan() }
        _ = removeIfEntry(DiskCacheName.entry(for: url), url: url)
    }

    /// Writes `entry` in place of any earlier one, atomically; then removes least recently
    /// used entries while the folder is over the limit. Returns false when it was not kept:
    /// larger than the limit alone (an earlier entry for the URL is then removed), metadata
    /// too long for the header, the folder not writable, or the entry's name taken by
    /// something that is not a regular file.
    @discardableResult
    func store(_ entry: DiskCacheEntry) -> Bool {
        defer { startScan() }
        let name = DiskCacheName.entry(for: entry.url)
        let (total, overflow) = DiskCacheMetadata.size.addingReportingOverflow(entry.body.count)
        guard !overflow, total <= configuration.sizeLimit, entry.metadata.bodyLength == entry.body.count,
            let header = entry.metadata.encoded()
        else {
            _ = removeIfEntry(name, url: entry.url)
            return false
        }
        prepareFolder()
        let temporary = path(DiskCacheName.temporary(for: entry.url, pid: getpid(), random: .random(in: 0...UInt64.max)))
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written =
            header.withUnsafeBytes { DiskCacheFile.write(fd, $0, at: 0) }
            && entry.body.withUnsafeBytes { DiskCacheFile.write(fd, $0, at: DiskCacheMetadata.size) }
        let stamp = state.withLock { s in
            s.bytesWritten += total
            return s.nextStamp(now: Self.now())
        }
        DiskCacheFile.mark(fd, used: stamp)
        guard close(fd) == 0, written else {
            unlink(temporary)
            return false
        }
        // Only a regular file (or nothing) is replaced: never a folder, link or FIFO.
        let final = path(name)
        if let existing = DiskCacheFile.status(final), !DiskCacheFile.isRegular(existing) {
            unlink(temporary)
            return false
        }
        guard rename(temporary, final) == 0 else {
            unlink(temporary)
            return false
        }
        state.withLock { $0.set(name, .init(size: total, used: stamp)) }
        evict(keeping: name)
        return true
    }

    /// A temporary file in the folder for `url`'s body while it downloads; nil when the
    /// folder cannot take one.
    func spool(for url: String) -> DiskCacheSpool? {
        prepareFolder()
        return DiskCacheSpool(path: path(DiskCacheName.temporary(for: url, pid: getpid(), random: .random(in: 0...UInt64.max))))
    }

    /// Rewrites the header of `entry`'s file with `entry`'s metadata, leaving the body as it
    /// is (a 304): one positioned write of the header. False when the file is no longer
    /// that entry with that body (then nothing is written).
    func updateMetadata(of entry: DiskCacheEntry) -> Bool {
        defer { startScan() }
        let name = DiskCacheName.entry(for: entry.url)
        guard let header = entry.metadata.encoded(), let file = DiskCacheFile.openRegular(path(name), writing: true)
        else { return false }
        defer { file.close() }
        guard let current = self.header(of: file), current.url == entry.url,
            current.bodyLength == entry.metadata.bodyLength, current.bodyChecksum == entry.metadata.bodyChecksum,
            header.withUnsafeBytes({ DiskCacheFile.write(file.descriptor, $0, at: 0) })
        else { return false }
        state.withLock { $0.bytesWritten += header.count }
        let stamp = markUsed(file)
        state.withLock { $0.set(name, .init(size: file.size, used: stamp)) }
        return true
    }

    func path(_ name: String) -> String {
        configuration.folder.appendingPathComponent(name).path
    }

    /// The metadata in an open file's header when it is one for a file of this size.
    func header(of file: DiskCacheFile.Opened) -> DiskCacheMetadata? {
        var bytes = [UInt8](repeating: 0, count: DiskCacheMetadata.size)
        guard bytes.withUnsafeMutableBytes({ DiskCacheFile.read(file.descriptor, into: $0, at: 0) }),
            let metadata = bytes.withUnsafeBytes({ DiskCacheMetadata(header: $0) }),
            configuration.sizeLimit >= DiskCacheMetadata.size,
            metadata.bodyLength <= configuration.sizeLimit - DiskCacheMetadata.size,
            file.size == DiskCacheMetadata.size + metadata.bodyLength
        else { return nil }
        return metadata
    }

    /// The body after the header, read (not mapped: another process cutting the file makes
    /// a short read, a miss) and checked against the header's checksum.
    private static func readBody(of file: DiskCacheFile.Opened, metadata: DiskCacheMetadata) -> Data? {
        let length = metadata.bodyLength
        guard let memory = malloc(max(length, 1)) else { return nil }
        let buffer = UnsafeMutableRawBufferPointer(start: memory, count: length)
        guard DiskCacheFile.read(file.descriptor, into: buffer, at: DiskCacheMetadata.size),
            StripeHash64.hash(UnsafeRawBufferPointer(buffer)) == metadata.bodyChecksum
        else {
            free(memory)
            return nil
        }
        guard length > 0 else {
            free(memory)
            return Data()
        }
        return Data(bytesNoCopy: memory, count: length, deallocator: .free)
    }

    /// Marks an open entry used now, later than any entry this instance marked before.
    private func markUsed(_ file: DiskCacheFile.Opened) -> Int64 {
        let stamp = state.withLock { $0.nextStamp(now: Self.now()) }
        DiskCacheFile.mark(file.descriptor, used: stamp)
        return stamp
    }

    /// Creates the folder if it is missing and, once per instance, writes the marker.
    private func prepareFolder() {
        let first = state.withLock { s -> Bool in
            defer { s.marked = true }
            return !s.marked
        }
        guard first else { return }
        try? FileManager.default.createDirectory(at: configuration.folder, withIntermediateDirectories: true)
        let fd = open(path(DiskCacheName.marker), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }  // already there, or not writable: either way nothing to do
        let text = Array("ZTRPDCM\nZoetrope disk cache, format 2: files named zoetrope-*.entry here are its entries.\n".utf8)
        _ = text.withUnsafeBytes { DiskCacheFile.write(fd, $0, at: 0) }
        close(fd)
    }

    /// Microseconds since 1970.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
