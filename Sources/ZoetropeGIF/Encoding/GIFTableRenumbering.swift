#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Renumbers a finished animation's global colour table so that the indices most frames
/// draw come first. A frame on the global table is coded with the bits its highest index
/// needs (`GIFFramePlan.codeSize`), but the table is filled in the order the colours came
/// (the first frame's, then the new ones), before later frames are known; once every frame
/// is written, the frames that draw only a few colours can name them with small indices.
///
/// LZW strings are built from index *equality*, so renumbering changes no string: each
/// frame's codes are read (with the decoder's width rules), literals are mapped, string
/// codes shift with the smaller literal count, and the same sequence is packed again at
/// the new widths, which are never wider. Images on a local table, and the file around
/// the images, are copied unchanged; the GCE's transparent index is mapped with the rest.
/// Memory: a few numbers per frame and its clear codes, and the new file beside the old one
/// when it is smaller.
enum GIFTableRenumbering {
    /// The file renumbered when that makes it smaller; otherwise `data` itself (also for
    /// anything that is not the writer's own, well-formed output).
    static func apply(to data: Data) -> Data {
        data.withUnsafeBytes { bytes in renumbered(bytes) } ?? data
    }

    private static func renumbered(_ bytes: UnsafeRawBufferPointer) -> Data? {
        guard let file = parse(bytes), !file.frames.isEmpty else { return nil }
        // How many frames draw each index, from one read of every frame's codes.
        var uses = [Int](repeating: 0, count: file.tableSize)
        var scans: [Scan] = []
        scans.reserveCapacity(file.frames.count)
        for frame in file.frames {
            guard let scan = Scan(bytes, frame), scan.used.allSatisfy({ $0 < file.tableSize }) else { return nil }
            for i in scan.used { uses[i] += 1 }
            scans.append(scan)
        }
        let order = (0..<file.tableSize).sorted { uses[$0] != uses[$1] ? uses[$0] > uses[$1] : $0 < $1 }
        var map = Array(0..<256)
        for (new, old) in order.enumerated() { map[old] = new }
        var saved = 0
        for scan in scans { saved += scan.bytes(codeSize: scan.codeSize) - scan.bytes(codeSize: scan.codeSize(after: map)) }
        guard saved > 0 else { return nil }

        var out = Data()
        out.reserveCapacity(bytes.count - saved)
        out.append(contentsOf: bytes[0..<file.tableStart])
        for old in order { out.append(contentsOf: bytes[file.tableStart + 3 * old..<file.tableStart + 3 * old + 3]) }
        var p = file.tableStart + 3 * file.tableSize
        for (frame, scan) in zip(file.frames, scans) {
            let base = out.count - p
            out.append(contentsOf: bytes[p..<frame.codeSizeOffset])
            if let t = frame.transparentOffset { out[base + t] = UInt8(map[Int(bytes[t])]) }
            scan.write(bytes, frame, map: map, into: &out)
            p = frame.end
        }
        out.append(contentsOf: bytes[p...])
        return out
    }

    /// Where one image on the global table keeps its parts.
    struct Frame {
        /// The offset of its GCE's transparent index, when the GCE declares one.
        var transparentOffset: Int?
        /// The LZW minimum code size byte; the data sub-blocks follow it.
        var codeSizeOffset: Int
        /// Just past the sub-blocks' terminator.
        var end: Int
    }

    /// The global table's place and size, and the images on it; nil when the bytes are not
    /// a well-formed GIF with a global table.
    static func parse(_ b: UnsafeRawBufferPointer) -> (tableStart: Int, tableSize: Int, frames: [Frame])? {
        guard b.count >= 13, b[10] & 0x80 != 0 else { return nil }
        let tableSize = 2 << Int(b[10] & 7)
        var p = 13 + 3 * tableSize
        var frames: [Frame] = []
        var transparent: Int?
        func skipSubBlocks(_ p: inout Int) -> Bool {
            while p < b.count, b[p] != 0 { p += 1 + Int(b[p]) }
            guard p < b.count else { return false }
            p += 1
            return true
        }
        while p < b.count {
            switch b[p] {
            case 0x21:
                guard p + 1 < b.count else { return nil }
                if b[p + 1] == 0xF9 {
                    guard p + 7 < b.count, b[p + 2] == 4 else { return nil }
                    transparent = b[p + 3] & 1 != 0 ? p + 6 : nil
                }
                p += 2
                guard skipSubBlocks(&p) else { return nil }
            case 0x2C:
                guard p + 11 < b.count else { return nil }
                let local = b[p + 9] & 0x80 != 0 ? 3 * (2 << Int(b[p + 9] & 7)) : 0
                var q = p + 10 + local
                let codeSize = q
                q += 1
                guard q < b.count, (2...8).contains(Int(b[codeSize])), skipSubBlocks(&q) else { return nil }
                // An image on its own table is copied as it is.
                if local == 0 { frames.append(Frame(transparentOffset: transparent, codeSizeOffset: codeSize, end: q)) }
                transparent = nil
                p = q
            case 0x3B:
                return (13, tableSize, frames)
            default:
                return nil
            }
        }
        return nil
    }

    /// One image's codes read once: the literals it draws and, for the widths, how many
    /// codes come between its clear codes.
    struct Scan {
        let codeSize: Int
        private(set) var used: [Int] = []
        /// Per clear or end code: the other codes before it since the one before.
        private(set) var runs: [Int] = []

        init?(_ b: UnsafeRawBufferPointer, _ frame: Frame) {
            codeSize = Int(b[frame.codeSizeOffset])
            var seen = [Bool](repeating: false, count: 256)
            var reader = Reader(b, from: frame.codeSizeOffset + 1, codeSize: codeSize)
            var count = 0
            while let code = reader.read() {
                if code == reader.clear || code == reader.clear + 1 {
                    runs.append(count)
                    count = 0
                    if code != reader.clear { break }
                } else {
                    count += 1
                    if code < reader.clear, !seen[code] {
                        seen[code] = true
                        used.append(code)
                    }
                }
            }
            guard reader.ended, !reader.tableFull else { return nil }
        }

        /// The minimum code size for the indices drawn, renumbered by `map`.
        func codeSize(after map: [Int]) -> Int {
            var highest = 0
            for i in used { highest = max(highest, map[i]) }
            return GIFFramePlanner.codeSize(highest + 1)
        }

        /// The image data's bytes at `codeSize`: the size byte, the sub-blocks, the terminator.
        func bytes(codeSize: Int) -> Int {
            var widths = CodeWidths(codeSize: codeSize)
            var bits = 0
            for run in runs {
                for _ in 0..<run {
                    bits += widths.width
                    widths.advance()
                }
                bits += widths.width  // the clear or end code
                widths.restart()
            }
            let data = (bits + 7) / 8
            return 1 + data + (data + 254) / 255 + 1
        }

        /// Appends the image data renumbered by `map`: the size byte, the sub-blocks, the
        /// terminator.
        func write(_ b: UnsafeRawBufferPointer, _ frame: Frame, map: [Int], into out: inout Data) {
            let newSize = codeSize(after: map)
            let oldClear = 1 << codeSize, newClear = 1 << newSize
            out.append(UInt8(newSize))
            var writer = Writer(codeSize: newSize)
            var reader = Reader(b, from: frame.codeSizeOffset + 1, codeSize: codeSize)
            while let code = reader.read() {
                let mapped = code < oldClear ? map[code] : code - oldClear + newClear
                writer.put(mapped, into: &out)
                if code == oldClear + 1 { break }
            }
            writer.finish(into: &out)
        }
    }

    /// Reads LZW codes from the sub-blocks that start at `p`, following the code width as
    /// a decoder does (clear codes restart it).
    struct Reader {
        let clear: Int
        private let b: UnsafeRawBufferPointer
        private var p: Int, left = 0
        private var bits = 0, bitCount = 0
        private var widths: CodeWidths
        private(set) var ended = false
        /// A code came with the table full and no clear before it (a deferred clear): its
        /// meaning would change with fewer literals, so such a stream is left alone.
        var tableFull: Bool { widths.tableFull }

        init(_ b: UnsafeRawBufferPointer, from p: Int, codeSize: Int) {
            self.b = b
            self.p = p
            clear = 1 << codeSize
            widths = CodeWidths(codeSize: codeSize)
        }

        mutating func read() -> Int? {
            let width = widths.width
            while bitCount < width {
                if left == 0 {
                    guard p < b.count, b[p] != 0 else { return nil }
                    left = Int(b[p])
                    p += 1
                }
                guard p < b.count else { return nil }
                bits |= Int(b[p]) << bitCount
                bitCount += 8
                p += 1
                left -= 1
            }
            let code = bits & ((1 << width) - 1)
            bits >>= width
            bitCount -= width
            if code == clear {
                widths.restart()
            } else if code == clear + 1 {
                ended = true
            } else {
                widths.advance()
            }
            return code
        }
    }

    /// Packs codes into sub-blocks with the decoder's widths for `codeSize`.
    struct Writer {
        private let clear: Int
        private var widths: CodeWidths
        private var bits = 0, bitCount = 0
        private var block: [UInt8] = []

        init(codeSize: Int) {
            clear = 1 << codeSize
            widths = CodeWidths(codeSize: codeSize)
            block.reserveCapacity(255)
        }

        mutating func put(_ code: Int, into out: inout Data) {
            bits |= code << bitCount
            bitCount += widths.width
            while bitCount >= 8 {
                emit(UInt8(bits & 0xFF), into: &out)
                bits >>= 8
                bitCount -= 8
            }
            if code == clear {
                widths.restart()
            } else if code != clear + 1 {
                widths.advance()
            }
        }

        mutating func finish(into out: inout Data) {
            if bitCount > 0 { emit(UInt8(bits & 0xFF), into: &out) }
            if !block.isEmpty {
                out.append(UInt8(block.count))
                out.append(contentsOf: block)
            }
            out.append(0)
        }

        private mutating func emit(_ byte: UInt8, into out: inout Data) {
            block.append(byte)
            if block.count == 255 {
                out.append(255)
                out.append(contentsOf: block)
                block.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The code width as a decoder follows it: each code after the first since a clear adds
    /// a table entry (while there is room), and the width grows when the next entry needs
    /// another bit. Reading, writing and sizing a stream share it, so they cannot disagree.
    struct CodeWidths {
        private let codeSize: Int
        private(set) var width: Int
        private var next: Int, afterClear = true
        /// A code came after the table filled (4096 entries) with no clear in between.
        private(set) var tableFull = false

        init(codeSize: Int) {
            self.codeSize = codeSize
            width = codeSize + 1
            next = (1 << codeSize) + 2
        }

        /// After a clear code.
        mutating func restart() {
            width = codeSize + 1
            next = (1 << codeSize) + 2
            afterClear = true
        }

        /// After any code but clear and end.
        mutating func advance() {
            if !afterClear {
                if next < 4096 { next += 1 } else { tableFull = true }
            }
            afterClear = false
            if next == 1 << width, width < 12 { width += 1 }
        }
    }
}
