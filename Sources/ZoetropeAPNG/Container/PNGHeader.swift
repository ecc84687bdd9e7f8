import Zoetrope

/// The IHDR fields, validated: what every frame's PNG stream repeats with its own size.
struct PNGHeader: Sendable, Hashable {
    var width: Int
    var height: Int
    var bitDepth: UInt8
    var colorType: UInt8
    var interlace: UInt8

    /// Parses and checks the 13 IHDR bytes (size, depth/colour combination, methods).
    init(_ p: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        guard p.count == 13 else { throw .invalidData(format: .png, reason: "IHDR is \(p.count) bytes, must be 13") }
        let w = PNGHeader.be32(p, 0), h = PNGHeader.be32(p, 4)
        guard w > 0, h > 0, w <= 0x7FFF_FFFF, h <= 0x7FFF_FFFF else {
            throw .invalidData(format: .png, reason: "IHDR size \(w)×\(h) is outside 1…2³¹−1")
        }
        width = Int(w)
        height = Int(h)
        bitDepth = p[8]
        colorType = p[9]
        interlace = p[12]
        let allowed: [UInt8]
        switch colorType {
        case 0: allowed = [1, 2, 4, 8, 16]
        case 3: allowed = [1, 2, 4, 8]
        case 2, 4, 6: allowed = [8, 16]
        default: throw .invalidData(format: .png, reason: "IHDR colour type \(colorType) is not 0, 2, 3, 4 or 6")
        }
        guard allowed.contains(bitDepth) else {
            throw .invalidData(format: .png, reason: "IHDR bit depth \(bitDepth) is not allowed for colour type \(colorType)")
        }
        guard p[10] == 0, p[11] == 0 else {
            throw .invalidData(format: .png, reason: "IHDR compression/filter method \(p[10])/\(p[11]), must be 0/0")
        }
        guard interlace <= 1 else { throw .invalidData(format: .png, reason: "IHDR interlace method \(interlace) is not 0 or 1") }
    }

    /// The canvas size.
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether pixels carry alpha without tRNS (grey+alpha, RGBA).
    var hasAlphaChannel: Bool { colorType == 4 || colorType == 6 }

    /// Bytes libpng's row buffers take while decoding a frame `width` pixels wide: the
    /// current and previous filtered rows, and one RGBA16 output row.
    func rowBufferBytes(width: Int) -> Int { 2 * rowBytes(width: width) + width * 8 }

    /// Bytes of one unfiltered row of `width` pixels, plus the filter byte.
    func rowBytes(width: Int) -> Int {
        let channels: Int = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4
        return (width * channels * Int(bitDepth) + 7) / 8 + 1
    }

    @inline(__always)
    static func be32(_ p: UnsafeRawBufferPointer, _ o: Int) -> UInt32 {
        UInt32(p[o]) << 24 | UInt32(p[o + 1]) << 16 | UInt32(p[o + 2]) << 8 | UInt32(p[o + 3])
    }

    @inline(__always)
    static func be16(_ p: UnsafeRawBufferPointer, _ o: Int) -> UInt16 {
        UInt16(p[o]) << 8 | UInt16(p[o + 1])
    }
}
