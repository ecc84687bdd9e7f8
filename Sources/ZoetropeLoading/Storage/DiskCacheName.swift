/// The names of the disk cache's files. Only a name of these forms is ever opened, renamed
/// over or removed; whatever else the folder holds is not the cache's.
///
/// - an entry: `zoetrope-<32 hex digits>.entry`, the digits a hash of the URL;
/// - a file being written: `.zoetrope-<32 hex digits>.<pid>-<16 hex digits>.tmp`, the
///   writer's process id in the name, so that the next open can tell a crashed write
///   (its process gone) from one in progress;
/// - the marker: `.zoetrope-cache`, written once, saying what the files above are.
enum DiskCacheName {
    static let marker = ".zoetrope-cache"
    private static let entryPrefix = "zoetrope-"
    private static let entrySuffix = ".entry"
    private static let temporaryPrefix = ".zoetrope-"
    private static let temporarySuffix = ".tmp"

    /// The name of `url`'s entry. The URL is in the entry and checked on every read, so a
    /// collision is a miss, never a wrong image.
    static func entry(for url: String) -> String {
        entryPrefix + key(for: url) + entrySuffix
    }

    /// A new name to write `url`'s entry under before it is renamed into place.
    static func temporary(for url: String, pid: Int32, random: UInt64) -> String {
        temporaryPrefix + key(for: url) + ".\(pid)-" + hex(random) + temporarySuffix
    }

    /// Whether `name` has the form of an entry's name.
    static func isEntry(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count == entryPrefix.utf8.count + 32 + entrySuffix.utf8.count,
            name.hasPrefix(entryPrefix), name.hasSuffix(entrySuffix)
        else { return false }
        return utf8.dropFirst(entryPrefix.utf8.count).prefix(32).allSatisfy(isHexDigit)
    }

    /// The writer's process id when `name` has the form of a temporary file's name.
    static func temporaryWriter(_ name: String) -> Int32? {
        let bytes = Array(name.utf8)
        let prefix = Array(temporaryPrefix.utf8), suffix = Array(temporarySuffix.utf8)
        // prefix, 32 hex, ".", 1–10 digits, "-", 16 hex, suffix
        guard bytes.count >= prefix.count + 32 + 1 + 1 + 1 + 16 + suffix.count,
            bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        let key = bytes[prefix.count..<(prefix.count + 32)]
        let rest = bytes[(prefix.count + 32)..<(bytes.count - suffix.count)]
        guard key.allSatisfy(isHexDigit), rest.first == UInt8(ascii: "."), rest.count >= 1 + 1 + 1 + 16 else { return nil }
        let random = rest.suffix(16), digits = rest.dropFirst().dropLast(17)
        guard rest[rest.endIndex - 17] == UInt8(ascii: "-"), random.allSatisfy(isHexDigit),
            (1...10).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        var pid = 0
        for digit in digits { pid = pid * 10 + Int(digit - 0x30) }
        guard pid > 0, pid <= Int(Int32.max) else { return nil }
        return Int32(pid)
    }

    /// 32 hex digits: two FNV-1a hashes of the URL (forwards and backwards).
    private static func key(for url: String) -> String {
        var a = FNV1a(), b = FNV1a(seed: 0x6c62_272e_07bb_0142)
        a.add(url.utf8)
        b.add(url.utf8.reversed())
        return hex(a.value) + hex(b.value)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
