import Foundation

/// Builds PNG and APNG files byte by byte for test fixtures, including deliberately broken
/// ones (wrong sequence numbers, bad CRCs, missing chunks).
///
/// Image data is stored uncompressed (deflate "stored" blocks inside a zlib stream, with
/// Adler-32 and CRC-32 computed here), so no library is involved in making a fixture.
public struct APNGWriter: Sendable {
    /// One chunk as it will be written.
    public struct Chunk: Sendable {
        /// The four-character type, such as "IHDR".
        public var type: String
        /// The chunk data.
        public var payload: [UInt8]
        /// A CRC to write instead of the correct one (to test CRC checks).
        public var crcOverride: UInt32?

        public init(type: String, payload: [UInt8], crcOverride: UInt32? = nil) {
            self.type = type
            self.payload = payload
            self.crcOverride = crcOverride
        }
    }

    /// One animation frame: a rectangle of straight RGBA8 pixels and its fcTL fields.
    public struct Frame: Sendable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// `width × height × 4` bytes, rows top to bottom.
        public var rgba: [UInt8]
        public var delayNumerator: UInt16
        public var delayDenominator: UInt16
        /// 0 NONE, 1 BACKGROUND, 2 PREVIOUS (other values for invalid fixtures).
        public var disposeOp: UInt8
        /// 0 SOURCE, 1 OVER (other values for invalid fixtures).
        public var blendOp: UInt8

        public init(
            x: Int = 0, y: Int = 0, width: Int, height: Int, rgba: [UInt8],
            delayNumerator: UInt16 = 1, delayDenominator: UInt16 = 10,
            disposeOp: UInt8 = 0, blendOp: UInt8 = 0
        ) {
            precondition(rgba.count == width * height * 4, "frame pixels must be width × height × 4 bytes")
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.rgba = rgba
            self.delayNumerator = delayNumerator
            self.delayDenominator = delayDenominator
            self.disposeOp = disposeOp
            self.blendOp = blendOp
        }

        /// A frame filled with one colour.
        public static func solid(
            x: Int = 0, y: Int = 0, width: Int, height: Int, _ rgba: [UInt8],
            delayNumerator: UInt16 = 1, delayDenominator: UInt16 = 10,
            disposeOp: UInt8 = 0, blendOp: UInt8 = 0
        ) -> Frame {
            Frame(
                x: x, y: y, width: width, height: height,
                rgba: Array([[UInt8]](repeating: rgba, count: width * height).joined()),
                delayNumerator: delayNumerator, delayDenominator: delayDenominator,
                disposeOp: disposeOp, blendOp: blendOp)
        }
    }

    /// The chunks written after the signature, in order.
    public var chunks: [Chunk]

    /// An empty file (just the signature once written).
    public init(chunks: [Chunk] = []) {
        self.chunks = chunks
    }

    /// Appends a chunk.
    public mutating func append(_ type: String, _ payload: [UInt8], crcOverride: UInt32? = nil) {
        chunks.append(Chunk(type: type, payload: payload, crcOverride: crcOverride))
    }

    /// The file: signature and chunks.
    public var data: Data {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for c in chunks {
            let typeBytes = Array(c.type.utf8)
            precondition(typeBytes.count == 4, "chunk types are four bytes")
            APNGWriter.appendBE32(&out, UInt32(c.payload.count))
            out += typeBytes
            out += c.payload
            APNGWriter.appendBE32(&out, c.crcOverride ?? APNGWriter.crc32(typeBytes + c.payload))
        }
        return Data(out)
    }

    // MARK: - Whole files

    /// A still RGBA8 PNG.
    public static func stillPNG(width: Int, height: Int, rgba: [UInt8]) -> Data {
        var w = APNGWriter()
        w.append("IHDR", ihdr(width: width, height: height))
        w.append("IDAT", zlibStored(scanlines(rgba: rgba, width: width, height: height)))
        w.append("IEND", [])
        return w.data
    }

    /// An RGBA8 APNG on a `width`×`height` canvas. With `defaultImage` nil the first frame
    /// (which must fill the canvas) is the IDAT image; otherwise `defaultImage` (canvas-sized
    /// RGBA) is an IDAT image outside the animation and every frame is fdAT data.
    public static func animation(
        width: Int, height: Int, frames: [Frame], plays: UInt32 = 0,
        defaultImage: [UInt8]? = nil
    ) -> APNGWriter {
        var w = APNGWriter()
        w.append("IHDR", ihdr(width: width, height: height))
        w.append("acTL", actl(frameCount: UInt32(frames.count), plays: plays))
        var sequence: UInt32 = 0
        if let defaultImage {
            w.append("IDAT", zlibStored(scanlines(rgba: defaultImage, width: width, height: height)))
        }
        for (i, f) in frames.enumerated() {
            w.append("fcTL", fctl(sequence: sequence, frame: f))
            sequence += 1
            let z = zlibStored(scanlines(rgba: f.rgba, width: f.width, height: f.height))
            if i == 0, defaultImage == nil {
                w.append("IDAT", z)
            } else {
                w.append("fdAT", fdat(sequence: sequence, z))
                sequence += 1
            }
        }
        w.append("IEND", [])
        return w
    }

    // MARK: - Chunk payloads

    /// IHDR data.
    public static func ihdr(
        width: Int, height: Int, bitDepth: UInt8 = 8, colorType: UInt8 = 6,
        interlace: UInt8 = 0
    ) -> [UInt8] {
        var p: [UInt8] = []
        appendBE32(&p, UInt32(truncatingIfNeeded: width))
        appendBE32(&p, UInt32(truncatingIfNeeded: height))
        return p + [bitDepth, colorType, 0, 0, interlace]
    }

    /// acTL data.
    public static func actl(frameCount: UInt32, plays: UInt32) -> [UInt8] {
        var p: [UInt8] = []
        appendBE32(&p, frameCount)
        appendBE32(&p, plays)
        return p
    }

    /// fcTL data for `frame`.
    public static func fctl(sequence: UInt32, frame f: Frame) -> [UInt8] {
        fctl(
            sequence: sequence, width: UInt32(f.width), height: UInt32(f.height), x: UInt32(f.x), y: UInt32(f.y),
            delayNumerator: f.delayNumerator, delayDenominator: f.delayDenominator,
            disposeOp: f.disposeOp, blendOp: f.blendOp)
    }

    /// fcTL data from raw fields (any values, for invalid fixtures).
    public static func fctl(
        sequence: UInt32, width: UInt32, height: UInt32, x: UInt32 = 0, y: UInt32 = 0,
        delayNumerator: UInt16 = 1, delayDenominator: UInt16 = 10,
        disposeOp: UInt8 = 0, blendOp: UInt8 = 0
    ) -> [UInt8] {
        var p: [UInt8] = []
        for v in [sequence, width, height, x, y] { appendBE32(&p, v) }
        p += [
            UInt8(delayNumerator >> 8), UInt8(delayNumerator & 0xFF),
            UInt8(delayDenominator >> 8), UInt8(delayDenominator & 0xFF), disposeOp, blendOp,
        ]
        return p
    }

    /// fdAT data: sequence number then the zlib bytes.
    public static func fdat(sequence: UInt32, _ zlib: [UInt8]) -> [UInt8] {
        var p: [UInt8] = []
        appendBE32(&p, sequence)
        return p + zlib
    }

    // MARK: - Image data

    /// Filter-type-0 scanlines of RGBA8 pixels.
    public static func scanlines(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        scanlines(rows: (0..<height).map { Array(rgba[$0 * width * 4..<($0 + 1) * width * 4]) })
    }

    /// Filter-type-0 scanlines from rows of already packed samples (any colour type and depth).
    public static func scanlines(rows: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for row in rows { out.append(0); out += row }
        return out
    }

    /// Filter-type-0 scanlines of RGBA8 pixels in Adam7 order: the seven passes' reduced
    /// images one after another (empty passes left out), for interlaced fixtures.
    public static func adam7Scanlines(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                out.append(0)
                for x in stride(from: x0, to: width, by: dx) { out += rgba[(y * width + x) * 4..<(y * width + x) * 4 + 4] }
            }
        }
        return out
    }

    /// A zlib stream holding `raw` in stored (uncompressed) deflate blocks.
    public static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let last: UInt8 = offset + n == raw.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += raw[offset..<offset + n]
            offset += n
        } while offset < raw.count
        appendBE32(&out, adler32(raw))
        return out
    }

    /// A zlib stream that starts with `prefix` (as literals) and then repeats its last byte
    /// `copies` × 258 times, in one fixed-Huffman block of length-258, distance-1 copies: 13
    /// bits per 258 bytes, so 1 MB of stream inflates to about 160 MB. For decompression
    /// bombs built at test time. `terminated` adds the end-of-block code and the Adler-32.
    public static func zlibRepeating(prefix: [UInt8], copies: Int, terminated: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var acc: UInt64 = 0, count = 0
        func bits(_ value: Int, _ n: Int) {  // LSB first
            acc |= UInt64(value) << UInt64(count)
            count += n
            while count >= 8 { out.append(UInt8(acc & 0xFF)); acc >>= 8; count -= 8 }
        }
        func huffman(_ code: Int, _ n: Int) {  // Huffman codes go most significant bit first
            for i in stride(from: n - 1, through: 0, by: -1) { bits((code >> i) & 1, 1) }
        }
        bits(1, 1)  // BFINAL
        bits(1, 2)  // BTYPE 01: fixed Huffman codes
        for b in prefix {
            if b < 144 { huffman(0x30 + Int(b), 8) } else { huffman(0x190 + Int(b) - 144, 9) }
        }
        for _ in 0..<copies {
            huffman(0xC5, 8)  // length code 285: 258 bytes
            huffman(0, 5)  // distance code 0: 1 byte back
        }
        if terminated { huffman(0, 7) }  // end of block
        if count > 0 { out.append(UInt8(acc & 0xFF)) }
        if terminated {
            var raw = prefix
            raw += [UInt8](repeating: prefix.last ?? 0, count: copies * 258)
            appendBE32(&out, adler32(raw))
        }
        return out
    }

    // MARK: - Checksums

    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 as PNG uses it.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// Adler-32 as zlib uses it.
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes {
            a = (a + UInt32(x)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static func appendBE32(_ a: inout [UInt8], _ v: UInt32) {
        a += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
