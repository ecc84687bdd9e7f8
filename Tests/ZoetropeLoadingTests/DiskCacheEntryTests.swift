import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeLoading

/// The entry format read from hostile bytes: every length and offset checked, never a trap,
/// nothing but a whole, unchanged entry accepted.
@Suite struct DiskCacheEntryTests {
    typealias Support = DiskCacheTestSupport

    static func sealed(_ header: [UInt8]) -> [UInt8] {
        var header = header
        let checksum = header.withUnsafeBytes { StripeHash64.hash(UnsafeRawBufferPointer(rebasing: $0[0..<4088])) }
        withUnsafeBytes(of: checksum.littleEndian) { header.replaceSubrange(4088..<4096, with: $0) }
        return header
    }

    static func setting(_ header: [UInt8], _ value: some FixedWidthInteger, at offset: Int) -> [UInt8] {
        var header = header
        withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<(offset + $0.count), with: $0) }
        return sealed(header)
    }

    @Test func aWholeEntryRoundTrips() throws {
        let entry = Support.entry("https://example.com/a.gif", bytes: 777)
        let file = try #require(entry.file())
        let read = try #require(DiskCacheEntry(file: file, url: entry.url))
        #expect(read.metadata == entry.metadata)
        #expect(read.body == entry.body)
        #expect(DiskCacheEntry(file: file, url: "https://example.com/b.gif") == nil)
        #expect(DiskCacheEntry(file: file + Data([0]), url: nil) == nil)
        #expect(DiskCacheEntry(file: file.dropLast(), url: nil) == nil)
    }

    /// Lengths and values a checksum-correct header may still carry: each one refused.
    @Test func craftedHeadersAreRefused() throws {
        let entry = Support.entry("https://example.com/a.gif", bytes: 10)
        let header = try #require(entry.metadata.encoded())
        let crafted: [(String, [UInt8])] = [
            ("body length 2^64-1", Self.setting(header, UInt64.max, at: 16)),
            ("body length Int.max", Self.setting(header, UInt64(Int.max), at: 16)),
            ("URL length 2^32-1", Self.setting(header, UInt32.max, at: 52)),
            ("ETag length past the header", Self.setting(header, UInt32(4000), at: 56)),
            ("strings summing past the header", Self.setting(Self.setting(header, UInt32(2000), at: 56), UInt32(2000), at: 60)),
            ("unknown flag", Self.setting(header, UInt32(8 | 2), at: 48)),
            ("Last-Modified length without its flag", Self.setting(header, UInt32(3), at: 60)),
            ("stored at NaN", Self.setting(header, Double.nan.bitPattern, at: 32)),
            ("stored at infinity", Self.setting(header, Double.infinity.bitPattern, at: 32)),
            ("lifetime NaN", Self.setting(header, Double.nan.bitPattern, at: 40)),
            ("version 3", Self.setting(header, UInt32(3), at: 8)),
            ("header size 8192", Self.setting(header, UInt32(8192), at: 12)),
            ("empty URL", Self.setting(header, UInt32(0), at: 52)),
            ("invalid UTF-8", Self.sealed(header.enumerated().map { $0.offset == 64 ? 0xff : $0.element })),
        ]
        for (name, bytes) in crafted {
            #expect(bytes.withUnsafeBytes { DiskCacheMetadata(header: $0) } == nil, "\(name)")
            #expect(DiskCacheEntry(file: Data(bytes) + entry.body, url: nil) == nil, "\(name)")
        }
        #expect(Self.sealed(header) == header)
        #expect(header.withUnsafeBytes { DiskCacheMetadata(header: $0) } == entry.metadata)
    }

    /// Random changes to a whole entry (bytes flipped, cut, grown), with the header's
    /// checksum made right again half of the time: nothing traps, and nothing but the
    /// original is accepted as an entry with the original's body.
    @Test func randomChangesNeverTrapOrPass() throws {
        let entry = Support.entry("https://example.com/a.gif", bytes: 300)
        let file = try #require(entry.file())
        var random = SplitMix64(seed: 40)
        for round in 0..<3000 {
            var bytes = [UInt8](file)
            switch random.next() % 3 {
            case 0: bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            case 1: bytes += (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            default: break
            }
            for _ in 0...(random.next() % 4) where !bytes.isEmpty {
                let at = Int(random.next() % UInt64(min(bytes.count, 4200)))
                bytes[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            if random.next() % 2 == 0, bytes.count >= 4096 {
                bytes = Self.sealed(Array(bytes[0..<4096])) + bytes[4096...]
            }
            let read = DiskCacheEntry(file: Data(bytes), url: nil)
            if Data(bytes) != file, let read {
                // Only a header change the checksum was made right for can pass, never a body change.
                #expect(read.body == entry.body, "round \(round)")
            }
        }
    }
}
