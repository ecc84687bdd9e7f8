import Foundation
import Testing
import Zoetrope

@testable import ZoetropeAVIF

/// An `iprp` with two `ipma` boxes of the same version and flags: libavif 0.11 refuses it
/// ("Multiple Box[ipma] with a given pair of values of version and flags"), Chromium
/// decodes it; Zoetrope merges the boxes in its copy of the file.
@Suite struct AVIFRepeatedIPMATests {
    let coder = AVIFCoder()

    static func be(_ b: [UInt8], _ o: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 << 8 | Int(b[o + $1]) } }
    static func put(_ b: inout [UInt8], _ o: Int, _ n: Int, _ v: Int) {
        for i in 0..<n { b[o + i] = UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - i))) }
    }

    /// Offset of the first child box of `type` inside `range`.
    static func find(_ b: [UInt8], _ type: String, in range: Range<Int>) -> Int? {
        var o = range.lowerBound
        while o + 8 <= range.upperBound {
            let size = be(b, o, 4)
            if String(decoding: b[o + 4..<o + 8], as: UTF8.self) == type { return o }
            guard size >= 8 else { return nil }
            o += size
        }
        return nil
    }

    /// The still with its one `ipma` (two entries: colour and alpha) split into two `ipma`
    /// boxes of one entry each. The file grows by 16 bytes, so `iprp` and `meta` sizes and the
    /// `iloc` extent offsets into the `mdat` after them are moved by 16 too.
    static func splitIPMA(_ data: Data) throws -> Data {
        var b = [UInt8](data)
        let meta = try #require(find(b, "meta", in: 0..<b.count))
        let metaEnd = meta + be(b, meta, 4)
        let iprp = try #require(find(b, "iprp", in: meta + 12..<metaEnd))
        let ipma = try #require(find(b, "ipma", in: iprp + 8..<iprp + be(b, iprp, 4)))
        let ipmaEnd = ipma + be(b, ipma, 4)
        let version = b[ipma + 8], flags = Array(b[ipma + 9..<ipma + 12])
        #expect(be(b, ipma + 12, 4) == 2, "the encoder's still with alpha has two items")
        let idSize = version == 0 ? 2 : 4, propertySize = flags[2] & 1 != 0 ? 2 : 1
        let first = ipma + 16, firstEnd = first + idSize + 1 + Int(b[first + idSize]) * propertySize
        func box(_ entry: ArraySlice<UInt8>) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 4) + Array("ipma".utf8) + [version] + flags + [0, 0, 0, 1] + Array(entry)
            put(&out, 0, 4, out.count)
            return out
        }
        let split = box(b[first..<firstEnd]) + box(b[firstEnd..<ipmaEnd])
        #expect(split.count == ipmaEnd - ipma + 16)
        // iloc extent offsets (or base offsets) point past meta: move them by 16.
        let iloc = try #require(find(b, "iloc", in: meta + 12..<metaEnd))
        let ilocVersion = Int(b[iloc + 8])
        let offsetSize = Int(b[iloc + 12] >> 4), lengthSize = Int(b[iloc + 12] & 15)
        let baseSize = Int(b[iloc + 13] >> 4), indexSize = ilocVersion > 0 ? Int(b[iloc + 13] & 15) : 0
        var o = iloc + 14
        let items = be(b, o, ilocVersion < 2 ? 2 : 4)
        o += ilocVersion < 2 ? 2 : 4
        for _ in 0..<items {
            o += ilocVersion < 2 ? 2 : 4
            var method = 0
            if ilocVersion > 0 { method = be(b, o, 2) & 15; o += 2 }
            o += 2
            let shiftBase = baseSize > 0 && method == 0
            if shiftBase { put(&b, o, baseSize, be(b, o, baseSize) + 16) }
            o += baseSize
            let extents = be(b, o, 2)
            o += 2
            for _ in 0..<extents {
                o += indexSize
                if !shiftBase && method == 0 { put(&b, o, offsetSize, be(b, o, offsetSize) + 16) }
                o += offsetSize + lengthSize
            }
        }
        put(&b, iprp, 4, be(b, iprp, 4) + 16)
        put(&b, meta, 4, be(b, meta, 4) + 16)
        b.replaceSubrange(ipma..<ipmaEnd, with: split)
        return Data(b)
    }

    @Test func repeatedIPMABoxesAreMergedAndTheStillDecodes() throws {
        let e = AVIFTestEncoder(width: 8, height: 4)
        let original = try e.encode([e.halves([1, 2, 3, 255], [4, 5, 6, 7], durationMs: 0)], still: true)
        let data = try Self.splitIPMA(original)
        #expect(data.count == original.count + 16)
        // The container pass finds one merge to make (without it, libavif 0.11 refuses the file).
        let patches = data.withUnsafeBytes { raw in (try? AVIFIndex.parse(raw))?.patches ?? [] }
        #expect(patches.count == 1)
        let source = try coder.makeFrameSource(data: data, options: .default)
        #expect(source.info.hasAlpha == true)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame == (try coder.makeFrameSource(data: original, options: .default).decodeFrame(at: 0)))
        #expect(frame.pixel(x: 0, y: 0) == [1, 2, 3, 255] && frame.pixel(x: 7, y: 3) == [4, 5, 6, 7])
    }

    @Test func theMergedBoxKeepsTheIprpSizeAndListsEveryItem() throws {
        let e = AVIFTestEncoder(width: 8, height: 4)
        let data = try Self.splitIPMA(try e.encode([e.halves([9, 8, 7, 255], [6, 5, 4, 128], durationMs: 0)], still: true))
        let patch = try #require(data.withUnsafeBytes { raw in try? AVIFIndex.parse(raw) }?.patches.first)
        let b = patch.bytes
        #expect(String(decoding: b[4..<8], as: UTF8.self) == "ipma")
        #expect(Self.be(b, 0, 4) == b.count, "one ipma fills the space of the two")
        #expect(Self.be(b, 12, 4) == 2, "two entries, item IDs in order")
    }
}
