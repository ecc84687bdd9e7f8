/// Builds GIF files block by block for test fixtures. Every block is explicit, so a test
/// can write exactly the valid — or broken — file it needs: several graphic control
/// extensions before one image, a loop block of either kind, a truncated image, raw LZW
/// codes that break the rules.
public struct GIFWriter: Sendable {
    /// An RGB palette entry.
    public typealias Color = (r: UInt8, g: UInt8, b: UInt8)

    /// The file so far.
    public private(set) var bytes: [UInt8] = []

    /// Starts a file: signature, logical screen descriptor, optional global colour table
    /// (padded to a power of two of at least 2 entries with black).
    public init(
        width: Int, height: Int, globalColors: [Color]? = nil, version: String = "89a",
        backgroundIndex: UInt8 = 0
    ) {
        bytes += Array("GIF\(version)".utf8)
        GIFWriter.appendWord(width, to: &bytes)
        GIFWriter.appendWord(height, to: &bytes)
        var flags: UInt8 = 0x70  // colour resolution 8 bits
        if let globalColors { flags |= 0x80 | GIFWriter.tableSizeField(globalColors.count) }
        bytes += [flags, backgroundIndex, 0]
        if let globalColors { bytes += GIFWriter.colorTable(globalColors) }
    }

    /// A graphic control extension: delay in centiseconds, disposal method 0–7, optional
    /// transparent index.
    public mutating func graphicControl(delay: Int = 0, disposal: Int = 0, transparentIndex: Int? = nil) {
        let flags = UInt8((disposal & 7) << 2) | (transparentIndex == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, flags]
        GIFWriter.appendWord(delay, to: &bytes)
        bytes += [UInt8(transparentIndex ?? 0), 0]
    }

    /// A NETSCAPE2.0 (or ANIMEXTS1.0) application extension storing `count` (0 = forever).
    public mutating func loop(_ count: Int, identifier: String = "NETSCAPE2.0") {
        bytes += [0x21, 0xFF, 11] + Array(identifier.utf8.prefix(11)) + [3, 1]
        GIFWriter.appendWord(count, to: &bytes)
        bytes += [0]
    }

    /// A comment extension.
    public mutating func comment(_ text: String) {
        bytes += [0x21, 0xFE] + GIFWriter.subBlocks(Array(text.utf8))
    }

    /// A plain text extension covering the whole screen (which browsers do not render).
    public mutating func plainText(_ text: String, width: Int, height: Int) {
        var header: [UInt8] = [12, 0, 0, 0, 0]
        GIFWriter.appendWord(width, to: &header)
        GIFWriter.appendWord(height, to: &header)
        header += [8, 8, 1, 0]
        bytes += [0x21, 0x01] + header + GIFWriter.subBlocks(Array(text.utf8))
    }

    /// An image: `indices` holds `width × height` palette indices in row order (top to
    /// bottom); they are LZW-compressed, in interlace order when `interlaced`.
    public mutating func image(
        x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8],
        localColors: [Color]? = nil, interlaced: Bool = false, minimumCodeSize: Int? = nil
    ) {
        precondition(indices.count == width * height, "indices must cover the image")
        let highest = Int(indices.max() ?? 0)
        let bits = max(2, minimumCodeSize ?? (highest < 4 ? 2 : highest < 16 ? 4 : 8))
        let ordered = interlaced ? GIFWriter.interlaceOrder(indices, width: width, height: height) : indices
        imageDescriptor(x: x, y: y, width: width, height: height, localColors: localColors, interlaced: interlaced)
        bytes.append(UInt8(bits))
        bytes += GIFWriter.subBlocks(GIFWriter.lzw(ordered, minimumCodeSize: bits))
    }

    /// An image whose LZW stream is given as is (after the code size byte), for broken data.
    public mutating func image(
        x: Int = 0, y: Int = 0, width: Int, height: Int, minimumCodeSize: Int,
        lzwData: [UInt8], localColors: [Color]? = nil, interlaced: Bool = false
    ) {
        imageDescriptor(x: x, y: y, width: width, height: height, localColors: localColors, interlaced: interlaced)
        bytes.append(UInt8(minimumCodeSize))
        bytes += GIFWriter.subBlocks(lzwData)
    }

    /// The image separator, descriptor and optional local colour table, nothing after.
    public mutating func imageDescriptor(
        x: Int = 0, y: Int = 0, width: Int, height: Int,
        localColors: [Color]? = nil, interlaced: Bool = false
    ) {
        bytes.append(0x2C)
        for v in [x, y, width, height] { GIFWriter.appendWord(v, to: &bytes) }
        var flags: UInt8 = interlaced ? 0x40 : 0
        if let localColors { flags |= 0x80 | GIFWriter.tableSizeField(localColors.count) }
        bytes.append(flags)
        if let localColors { bytes += GIFWriter.colorTable(localColors) }
    }

    /// Arbitrary bytes.
    public mutating func raw(_ more: [UInt8]) { bytes += more }

    /// The trailer (0x3B).
    public mutating func trailer() { bytes.append(0x3B) }

    /// The file with its trailer.
    public var file: [UInt8] { bytes + [0x3B] }

    // MARK: - Encoding helpers

    /// Splits data into sub-blocks of at most 255 bytes, plus the zero-length terminator.
    public static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            out.append(UInt8(n))
            out += data[i..<i + n]
            i += n
        }
        out.append(0)
        return out
    }

    /// A GIF LZW stream for `indices`: a clear code, the codes, the end-of-information code.
    /// The code width grows when the next code to assign no longer fits, and the table
    /// restarts with a clear code when it is full (4096 codes).
    public static func lzw(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var writer = CodeWriter()
        var width = minimumCodeSize + 1
        var next = clear + 2
        var table: [Int: Int] = [:]
        writer.write(clear, width: width)
        guard let first = indices.first else {
            writer.write(end, width: width)
            return writer.flushed
        }
        var prefix = Int(first)
        for k in indices.dropFirst() {
            let key = prefix << 8 | Int(k)
            if let code = table[key] {
                prefix = code
                continue
            }
            writer.write(prefix, width: width)
            if next < 4096 {
                table[key] = next
                next += 1
                if next > 1 << width, width < 12 { width += 1 }
            } else {
                writer.write(clear, width: width)
                table = [:]
                width = minimumCodeSize + 1
                next = clear + 2
            }
            prefix = Int(k)
        }
        writer.write(prefix, width: width)
        // The decoder counts that last code too, and may read the end code one bit wider.
        if next + 1 > 1 << width, width < 12 { width += 1 }
        writer.write(end, width: width)
        return writer.flushed
    }

    /// The most compact LZW stream for `pixelCount` copies of index 0 (code size 2): after
    /// each clear, every code is the next free entry, one pixel longer than the last, so
    /// about 8 million pixels fit in 6 KB. For decompression bombs built at test time.
    public static func zeroRunLZW(pixelCount: Int) -> [UInt8] {
        var writer = CodeWriter()
        var written = 0
        while written < pixelCount {
            writer.write(4, width: 3)  // clear
            writer.write(0, width: 3)
            written += 1
            var width = 3, next = 6, length = 1
            while written < pixelCount, next < 4096 {
                writer.write(next, width: width)  // the previous string plus its first pixel
                length += 1
                written += length
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
        }
        writer.write(5, width: 12)  // end (at the widest width the decoder may be reading)
        return writer.flushed
    }

    /// Packs codes of the given widths least-significant bit first, as GIF does, for
    /// hand-made (and deliberately invalid) LZW streams.
    public static func packCodes(_ codes: [(code: Int, width: Int)]) -> [UInt8] {
        var writer = CodeWriter()
        for c in codes { writer.write(c.code, width: c.width) }
        return writer.flushed
    }

    /// Rows reordered into the four interlace passes.
    public static func interlaceOrder(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(indices.count)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            var y = start
            while y < height {
                out += indices[y * width..<(y + 1) * width]
                y += step
            }
        }
        return out
    }

    static func appendWord(_ v: Int, to bytes: inout [UInt8]) {
        bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]
    }

    static func tableSizeField(_ count: Int) -> UInt8 {
        var bits = 1
        while 1 << bits < count, bits < 8 { bits += 1 }
        return UInt8(bits - 1)
    }

    static func colorTable(_ colors: [Color]) -> [UInt8] {
        let entries = 1 << (Int(tableSizeField(colors.count)) + 1)
        var out: [UInt8] = []
        for i in 0..<entries {
            let c: Color = i < colors.count ? colors[i] : (0, 0, 0)
            out += [c.r, c.g, c.b]
        }
        return out
    }

    /// Accumulates codes least-significant bit first.
    struct CodeWriter {
        var bytes: [UInt8] = []
        private var accumulator = 0
        private var count = 0

        mutating func write(_ code: Int, width: Int) {
            accumulator |= (code & ((1 << width) - 1)) << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                count -= 8
            }
        }

        var flushed: [UInt8] { count > 0 ? bytes + [UInt8(accumulator & 0xFF)] : bytes }
    }
}
