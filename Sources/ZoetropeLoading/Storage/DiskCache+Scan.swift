import Foundation
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DiskCache {
    /// A temporary file older than this is a crashed write whatever its process id says.
    static let abandonedAfter: Int64 = 600 * 1_000_000

    /// Starts listing the folder on a thread of its own, once per instance: the caller's
    /// first store does not wait for a folder of any size. Until the listing is in, stores
    /// only add up and nothing is evicted.
    func startScan() {
        let first = state.withLock { s -> Bool in
            guard s.scan == .notStarted else { return false }
            s.scan = .running
            return true
        }
        guard first else { return }
        NativeThread.detach(name: "zoetrope-disk") { [self] in scan() }
    }

    /// Whether the listing started by the first use is in, and the eviction it allowed done.
    var isScanned: Bool { state.withLock { $0.settled } }

    /// The entries' sizes and last uses (from `lstat`, not yet read: eviction checks each
    /// before it removes it); temporary files of crashed writes removed, those of writers
    /// still running counted.
    private func scan() {
        hooks.beforeScan?()
        let listed = listing()
        var found: [String: DiskCacheIndex.Item] = [:]
        for name in listed.entries {
            guard let info = DiskCacheFile.status(path(name)), DiskCacheFile.isRegular(info) else { continue }
            found[name] = .init(size: Int(info.st_size), used: DiskCacheFile.stamp(of: info))
        }
        var writing = 0
        for (name, pid) in listed.temporaries where pid != getpid() {
            guard let info = DiskCacheFile.status(path(name)), DiskCacheFile.isRegular(info) else { continue }
            if DiskCacheFile.isAlive(pid), Self.now() - DiskCacheFile.stamp(of: info) < Self.abandonedAfter {
                writing += Int(info.st_size)
            } else {
                unlink(path(name))
            }
        }
        state.withLock { $0.merge(scanned: found, writing: writing) }
        evict(keeping: nil)
        state.withLock { $0.settled = true }
    }

    /// The names in the folder of the forms the cache writes (nothing else is looked at).
    func listing() -> (entries: [String], temporaries: [(String, Int32)]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configuration.folder.path)) ?? []
        var entries: [String] = [], temporaries: [(String, Int32)] = []
        for name in names {
            if DiskCacheName.isEntry(name) {
                entries.append(name)
            } else if let pid = DiskCacheName.temporaryWriter(name) {
                temporaries.append((name, pid))
            }
        }
        return (entries, temporaries)
    }

    /// Removes every entry in the folder, and temporary files whose writer is gone; leaves
    /// every other file (the user's, files named like entries that are not whole entries).
    public func removeAll() {
        let listed = listing()
        for name in listed.entries { _ = removeIfEntry(name, url: nil) }
        for (name, pid) in listed.temporaries where pid != getpid() && !DiskCacheFile.isAlive(pid) {
            if let info = DiskCacheFile.status(path(name)), DiskCacheFile.isRegular(info) { unlink(path(name)) }
        }
    }

    /// The size of the file `name` when it is a whole entry stored under its own name.
    func validEntrySize(_ name: String) -> Int? {
        guard let file = DiskCacheFile.openRegular(path(name)) else { return nil }
        defer { file.close() }
        guard let metadata = header(of: file), DiskCacheName.entry(for: metadata.url) == name else { return nil }
        return file.size
    }

    /// Removes the file `name` if it is an entry (for `url`, when given) stored under its
    /// own name, and is still the file that was checked. Returns whether it was removed.
    func removeIfEntry(_ name: String, url: String?) -> Bool {
        let path = self.path(name)
        guard let file = DiskCacheFile.openRegular(path) else { return false }
        defer { file.close() }
        guard let metadata = header(of: file), url == nil || metadata.url == url,
            DiskCacheName.entry(for: metadata.url) == name, isStill(file, at: path), unlink(path) == 0
        else { return false }
        state.withLock { $0.remove(name) }
        return true
    }

    /// Removes least recently used entries until the folder is within the limit, never the
    /// one named `kept` (just written). Waits for the scan: before it, the folder's size is
    /// not known. Each file is read before it goes: one that is not an entry stays (and is
    /// no longer counted), one another process used since it was listed is kept.
    func evict(keeping kept: String?) {
        let limit = configuration.sizeLimit
        let candidates = state.withLock { s -> [(String, DiskCacheIndex.Item)]? in
            guard s.scan == .done, !s.evicting, s.total > limit else { return nil }
            s.evicting = true
            return s.items.sorted { ($0.value.used, $0.key) < ($1.value.used, $1.key) }
        }
        guard let candidates else { return }
        for (name, item) in candidates where name != kept {
            guard state.withLock({ $0.total > limit }) else { break }
            let path = self.path(name)
            guard let file = DiskCacheFile.openRegular(path) else {
                state.withLock { $0.remove(name) }
                continue
            }
            defer { file.close() }
            guard let metadata = header(of: file), DiskCacheName.entry(for: metadata.url) == name else {
                state.withLock { $0.remove(name) }
                continue
            }
            if file.stamp > item.used {
                state.withLock { $0.markUsed(name, at: file.stamp) }
                continue
            }
            if isStill(file, at: path), unlink(path) == 0 || errno == ENOENT {
                state.withLock { $0.remove(name) }
            }
        }
        state.withLock { $0.evicting = false }
    }

    /// Whether `path` still names the open `file` (not replaced since it was opened).
    private func isStill(_ file: DiskCacheFile.Opened, at path: String) -> Bool {
        guard let now = DiskCacheFile.status(path) else { return false }
        return now.st_dev == file.info.st_dev && now.st_ino == file.info.st_ino
    }
}
