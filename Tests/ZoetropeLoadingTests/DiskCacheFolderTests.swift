import Foundation
import Testing
import Zoetrope

@testable import ZoetropeLoading

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk cache pointed at a folder full of a user's things: after stores past the size
/// limit, hits, misses, removals and `removeAll()`, every one of them is as it was, byte for
/// byte, and the cache never waited on any of them.
@Suite struct DiskCacheFolderTests {
    typealias Support = DiskCacheTestSupport

    /// One file system object as `lstat` and a read show it.
    struct Thing: Equatable, CustomStringConvertible {
        var type: mode_t
        var mode: mode_t
        var size: Int64
        var modified: Int64
        var inode: UInt64
        var contents: Data?
        var link: String?

        var description: String { "type \(type) mode \(mode) size \(size) modified \(modified) link \(link ?? "-")" }
    }

    /// Every object under `root` (not following links), by path relative to `root`.
    static func snapshot(_ root: URL) -> [String: Thing] {
        var things: [String: Thing] = [:]
        func walk(_ relative: String) {
            let folder = relative.isEmpty ? root.path : root.path + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let path = folder + "/" + name, key = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                let type = info.st_mode & S_IFMT
                var thing = Thing(
                    type: type, mode: info.st_mode & 0o7777, size: Int64(info.st_size),
                    modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                    inode: UInt64(info.st_ino))
                if type == S_IFREG { thing.contents = FileManager.default.contents(atPath: path) }
                if type == S_IFLNK { thing.link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) }
                things[key] = thing
                if type == S_IFDIR { walk(key) }
            }
        }
        walk("")
        return things
    }

    @Test func aUsersFolderComesOutAsItWentIn() throws {
        let folder = try TemporaryFolder(), outside = try TemporaryFolder()
        let root = folder.url
        func file(_ name: String, _ text: String, in base: URL? = nil) throws {
            try Data(text.utf8).write(to: (base ?? root).appendingPathComponent(name))
        }
        func entryName(_ url: String) -> String { DiskCacheName.entry(for: url) }
        let stored = (0..<40).map { "https://example.com/\($0).gif" }
        // URLs whose entry names the user's things take.
        let fifoURL = "https://example.com/fifo.gif", linkURL = "https://example.com/link.gif"
        let folderURL = "https://example.com/folder.gif", danglingURL = "https://example.com/dangling.gif"
        let junkURL = "https://example.com/junk.gif", foreignURL = "https://example.com/foreign.gif"

        // The user's things.
        for (name, text) in [("precious.txt", "precious"), ("notes.md", "# notes"), ("thesis.docx", "PK…"), (".bashrc", "alias ll='ls -l'")] {
            try file(name, text)
        }
        try file("zoetrope-0123456789abcdef0123456789abcdef.entry", "named like an entry, not one")
        try file(entryName(junkURL), "named like junk.gif's entry, not one")
        try file(".zoetrope-0123456789abcdef0123456789abcdef.1-0123456789abcdef.tmp", "named like a live writer's file")
        try file(".zoetrope-abc.99999999999-0.tmp", "almost a temporary file's name")
        try file("zoetrope-ABCDEF0123456789ABCDEF0123456789.entry", "upper-case digits")
        try file("zoetrope-cache.txt", "near the marker's name")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("photos/2026"), withIntermediateDirectories: true)
        try file("photos/2026/beach.jpg", "JFIF")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(entryName(folderURL)), withIntermediateDirectories: false)
        try file(entryName(folderURL) + "/inside.txt", "in a folder named like an entry")
        #expect(mkfifo(root.appendingPathComponent("pipe").path, 0o600) == 0)
        #expect(mkfifo(root.appendingPathComponent(entryName(fifoURL)).path, 0o600) == 0)
        // A link named like an entry, to a whole entry for its URL outside the folder: if it were
        // followed it would be served, marked used, and replaced or removed.
        let victim = outside.url.appendingPathComponent("victim.entry")
        try #require(Support.entry(linkURL, bytes: 3000).file()).write(to: victim)
        try file("elsewhere.txt", "the user's other file", in: outside.url)
        #expect(symlink(victim.path, root.appendingPathComponent(entryName(linkURL)).path) == 0)
        #expect(symlink(outside.url.appendingPathComponent("elsewhere.txt").path, root.appendingPathComponent("shortcut").path) == 0)
        #expect(symlink(outside.url.path, root.appendingPathComponent("outside").path) == 0)
        #expect(symlink("/nonexistent/zoetrope", root.appendingPathComponent(entryName(danglingURL)).path) == 0)
        // A whole entry, but stored under another URL's name: not provably that URL's entry.
        try #require(Support.entry("https://example.com/other.gif", bytes: 100).file())
            .write(to: root.appendingPathComponent(entryName(foreignURL)))

        let userBefore = Self.snapshot(root), outsideBefore = Self.snapshot(outside.url)
        // 40 entries of 7,096 bytes against a limit of 12: evictions all along.
        let limit = 12 * (DiskCacheMetadata.size + 3000)
        let traps = [fifoURL, linkURL, folderURL, danglingURL, junkURL, foreignURL]
        let outcome = Support.within(120) { () -> [String] in
            var problems: [String] = []
            let cache = DiskCache(configuration: .init(folder: root, sizeLimit: limit))
            for (i, url) in stored.enumerated() {
                if !cache.store(Support.entry(url, bytes: 3000)) { problems.append("store \(i)") }
                if i == 0, !Support.waitForScan(cache) { problems.append("scan") }
                if cache.entry(for: url) == nil { problems.append("hit \(i)") }
            }
            for url in traps {
                if cache.entry(for: url) != nil { problems.append("served \(url)") }
                if cache.store(Support.entry(url, bytes: 3000)), url != junkURL, url != foreignURL {
                    problems.append("stored over \(url)")
                }
                if cache.updateMetadata(of: Support.entry(url, bytes: 3000)), url != junkURL, url != foreignURL {
                    problems.append("updated \(url)")
                }
                cache.removeEntry(for: URL(string: url)!)
            }
            for url in stored.prefix(30) where cache.entry(for: url) != nil { cache.removeEntry(for: URL(string: url)!) }
            if cache.totalSize > limit { problems.append("over the limit: \(cache.totalSize)") }
            // A second instance (another process) lists the folder afresh, then empties it.
            let second = DiskCache(configuration: .init(folder: root, sizeLimit: limit))
            if second.entry(for: stored[39]) == nil { problems.append("second miss") }
            if !Support.waitForScan(second) { problems.append("second scan") }
            second.removeAll()
            cache.removeAll()
            return problems
        }
        let problems = try #require(outcome, "the cache blocked on something in the folder")
        #expect(problems == [])

        // The junk and foreign names were the cache's to replace (regular files named as its
        // entries): replaced by a store of their URL, then removed as entries. Everything else
        // is as it was.
        var expected = userBefore
        expected[entryName(junkURL)] = nil
        expected[entryName(foreignURL)] = nil
        let after = Self.snapshot(root)
        for (path, thing) in expected {
            #expect(after[path] == thing, "\(path)")
        }
        #expect(Self.snapshot(outside.url) == outsideBefore)
        let added = Set(after.keys).subtracting(userBefore.keys)
        #expect(added == [DiskCacheName.marker])
        #expect(after[entryName(junkURL)] == nil)
    }
}
