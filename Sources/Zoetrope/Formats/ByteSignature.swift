#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Small helpers for reading signatures and big/little-endian integers from `Data`,
/// whatever the `Data`'s start index is (slices keep their parent's indices).
package enum ByteSignature {
    /// Whether `data` starts with `bytes` at offset `offset` from its start.
    package static func matches(_ data: Data, _ bytes: [UInt8], at offset: Int = 0) -> Bool {
        guard offset >= 0, data.count >= offset + bytes.count else { return false }
        let base = data.startIndex + offset
        for (i, b) in bytes.enumerated() where data[base + i] != b { return false }
        return true
    }

    /// Whether `data` starts with the ASCII string `ascii` at `offset`.
    package static func matches(_ data: Data, ascii: String, at offset: Int = 0) -> Bool {
        matches(data, Array(ascii.utf8), at: offset)
    }

    /// The byte at `offset` from the start, or nil past the end.
    package static func byte(_ data: Data, at offset: Int) -> UInt8? {
        guard offset >= 0, offset < data.count else { return nil }
        return data[data.startIndex + offset]
    }

    /// A big-endian `UInt32` at `offset`, or nil past the end.
    package static func uint32BE(_ data: Data, at offset: Int) -> UInt32? {
        guard offset >= 0, data.count >= offset + 4 else { return nil }
        let b = data.startIndex + offset
        return UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
    }

    /// A little-endian `UInt32` at `offset`, or nil past the end.
    package static func uint32LE(_ data: Data, at offset: Int) -> UInt32? {
        guard offset >= 0, data.count >= offset + 4 else { return nil }
        let b = data.startIndex + offset
        return UInt32(data[b]) | UInt32(data[b + 1]) << 8 | UInt32(data[b + 2]) << 16 | UInt32(data[b + 3]) << 24
    }

    /// Four ASCII characters at `offset` (a chunk or box type), or nil past the end.
    package static func fourCC(_ data: Data, at offset: Int) -> String? {
        guard offset >= 0, data.count >= offset + 4 else { return nil }
        let b = data.startIndex + offset
        return String(decoding: data[b..<b + 4], as: UTF8.self)
    }

    /// Sniffs a format identified by a fixed leading `magic`: `.match(format, kind)` once all
    /// of it is there, `.needMoreData` while `prefix` is a shorter start of it, else `.noMatch`.
    package static func sniff(
        _ prefix: Data, magic: [UInt8], format: ImageFormat,
        kind: AnimationKind = .unknown
    ) -> SniffResult {
        let n = min(prefix.count, magic.count)
        guard matches(prefix, Array(magic.prefix(n))) else { return .noMatch }
        return n < magic.count ? .needMoreData(minimumLength: magic.count) : .match(format, kind)
    }
}
