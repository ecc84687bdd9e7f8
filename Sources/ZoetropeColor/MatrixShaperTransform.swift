import Zoetrope

/// The conversion of a matrix-shaper RGB profile to sRGB without lcms2: per-channel curve
/// tables, a 3×3 matrix and sRGB's encoding, the three steps lcms2 takes for such a profile.
///
/// RGBA8 runs on integer tables. For each channel and each 8-bit value, one table row holds
/// that value's linear contribution to all three sRGB-linear outputs (the matrix column
/// times the curve, in fixed point with 8 fraction bits of 1/8192 steps), so a pixel costs
/// three 16-byte loads and two vector additions (`SIMD4<Int32>`), then three lookups in one
/// encoding table, two pixels an iteration. The table covers every sum the rows can make (out-of-gamut values
/// included, offset by `bias`), so no index is ever clamped or checked per pixel. RGBA16
/// interpolates 4,097-knot curve and encoding tables in `Float`. Alpha is left as it is.
///
/// `TransformCache` uses one only where it agrees with lcms2 within 1 (8-bit) on a probe of
/// every grey and 17 levels per channel in all combinations.
final class MatrixShaperTransform: ColorTransform {
    /// Table steps per linear unit.
    static let scale = 8192
    /// Fraction bits of the row values.
    static let fractionBits = 8
    /// Most encoding-table entries (linear values from about −3 to 5): a profile whose
    /// matrix reaches further goes to lcms2.
    static let maxEncodeEntries = 8 * scale

    /// 768 rows: red values, then green, then blue; lanes are the three outputs.
    private let rows: [SIMD4<Int32>]
    /// sRGB-encoded 8-bit value of index i, for the linear value (i − bias) / scale.
    private let encode8: [UInt8]
    /// The curves at 4,097 knots and one more, a channel after another.
    private let linear16: [Float]
    /// The matrix's columns (red, green, blue), for RGBA16.
    private let columns: [SIMD4<Float>]
    /// sRGB's encoding at 4,097 knots and one more.
    private let encode16: [Float]
    /// Bytes the tables hold.
    let retainedByteCount: Int

    /// The tables for `shaper`, or nil when its matrix and curves reach outside what the
    /// tables hold (`maxEncodeEntries`).
    init?(_ shaper: MatrixShaper) {
        let unit = Double(Self.scale << Self.fractionBits)
        var rows = [SIMD4<Int32>](repeating: .zero, count: 768)
        var low = SIMD4<Int64>(repeating: 0), high = SIMD4<Int64>(repeating: 0)
        for c in 0..<3 {
            var channelLow = SIMD4<Int64>(repeating: .max), channelHigh = SIMD4<Int64>(repeating: .min)
            for v in 0..<256 {
                let linear = Double(shaper.linear8[c * 256 + v]) * unit
                var row = SIMD4<Int32>.zero
                for k in 0..<3 {
                    let value = (shaper.matrix[k * 3 + c] * linear).rounded()
                    guard abs(value) < Double(1 << 28) else { return nil }
                    row[k] = Int32(value)
                    channelLow[k] = min(channelLow[k], Int64(value))
                    channelHigh[k] = max(channelHigh[k], Int64(value))
                }
                rows[c * 256 + v] = row
            }
            low &+= channelLow
            high &+= channelHigh
        }
        let half = Int64(1) << (Self.fractionBits - 1)
        let lowest = (min(low[0], low[1], low[2]) + half) >> Self.fractionBits
        let highest = (max(high[0], high[1], high[2]) + half) >> Self.fractionBits
        let entries = highest - lowest + 1
        guard entries <= Self.maxEncodeEntries else { return nil }
        let bias = Int(-lowest)
        // The rounding half and the bias ride on the red rows, so a pixel only adds.
        let offset = Int32(half + (Int64(bias) << Self.fractionBits))
        for v in 0..<256 { rows[v] &+= SIMD4(offset, offset, offset, 0) }
        self.rows = rows
        encode8 = (0..<Int(entries)).map { i in
            UInt8(MatrixShaper.encode(Double(i - bias) / Double(Self.scale)) * 255 + 0.5)
        }
        linear16 = shaper.linear16
        let m = shaper.matrix.map(Float.init)
        columns = (0..<3).map { c in SIMD4(m[c], m[3 + c], m[6 + c], 0) }
        var encode16 = (0...MatrixShaper.knots).map { Float(MatrixShaper.encode(Double($0) / Double(MatrixShaper.knots))) }
        encode16.append(encode16[MatrixShaper.knots])
        self.encode16 = encode16
        retainedByteCount =
            768 * MemoryLayout<SIMD4<Int32>>.stride + encode8.count + (linear16.count + encode16.count) * 4 + 3 * 16 + 64
    }

    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        guard width > 0, height > 0 else { return }
        rows.withUnsafeBufferPointer { rowBuffer in
            encode8.withUnsafeBufferPointer { encodeBuffer in
                let rows = rowBuffer.baseAddress!, encode = encodeBuffer.baseAddress!
                for y in 0..<height {
                    Self.convertRow(pixels + y * bytesPerRow, count: width, rows: rows, encode: encode)
                }
            }
        }
    }

    /// One row of RGBA8: every index the rows make is inside `encode` (see `init`). Two
    /// pixels an iteration, whose loads overlap (about a fifth faster than one).
    @inline(__always)
    private static func convertRow(
        _ row: UnsafeMutableRawPointer, count: Int, rows: UnsafePointer<SIMD4<Int32>>, encode: UnsafePointer<UInt8>
    ) {
        var x = 0
        while x &+ 1 < count {
            let first = UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
            let second = UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4 &+ 4, as: UInt32.self))
            let a = sum(first, rows), b = sum(second, rows)
            row.storeBytes(of: encoded(a, first, encode).littleEndian, toByteOffset: x &* 4, as: UInt32.self)
            row.storeBytes(of: encoded(b, second, encode).littleEndian, toByteOffset: x &* 4 &+ 4, as: UInt32.self)
            x &+= 2
        }
        if x < count {
            let pixel = UInt32(littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
            row.storeBytes(of: encoded(sum(pixel, rows), pixel, encode).littleEndian, toByteOffset: x &* 4, as: UInt32.self)
        }
    }

    /// The encoding-table indices of `pixel`'s three outputs.
    @inline(__always)
    private static func sum(_ pixel: UInt32, _ rows: UnsafePointer<SIMD4<Int32>>) -> SIMD4<Int32> {
        (rows[Int(pixel & 0xff)] &+ rows[256 &+ Int((pixel >> 8) & 0xff)] &+ rows[512 &+ Int((pixel >> 16) & 0xff)])
            &>> Int32(fractionBits)
    }

    /// The converted pixel: the three encoded channels and `pixel`'s alpha.
    @inline(__always)
    private static func encoded(_ index: SIMD4<Int32>, _ pixel: UInt32, _ encode: UnsafePointer<UInt8>) -> UInt32 {
        let red = UInt32(encode[Int(index[0])])
        let green = UInt32(encode[Int(index[1])]) << 8
        let blue = UInt32(encode[Int(index[2])]) << 16
        return red | green | blue | (pixel & 0xff00_0000)
    }

    func convert16(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        guard width > 0, height > 0 else { return }
        let (red, green, blue) = (columns[0], columns[1], columns[2])
        linear16.withUnsafeBufferPointer { linearBuffer in
            encode16.withUnsafeBufferPointer { encodeBuffer in
                let linear = linearBuffer.baseAddress!, encode = encodeBuffer.baseAddress!
                let stride = MatrixShaper.knots + 2
                for y in 0..<height {
                    let row = pixels + y * bytesPerRow
                    for x in 0..<width {
                        let at = x &* 8
                        let r = Self.interpolate(linear, row.loadUnaligned(fromByteOffset: at, as: UInt16.self))
                        let g = Self.interpolate(linear + stride, row.loadUnaligned(fromByteOffset: at &+ 2, as: UInt16.self))
                        let b = Self.interpolate(linear + 2 * stride, row.loadUnaligned(fromByteOffset: at &+ 4, as: UInt16.self))
                        let out = red * r + green * g + blue * b
                        row.storeBytes(of: Self.encoded(out[0], encode), toByteOffset: at, as: UInt16.self)
                        row.storeBytes(of: Self.encoded(out[1], encode), toByteOffset: at &+ 2, as: UInt16.self)
                        row.storeBytes(of: Self.encoded(out[2], encode), toByteOffset: at &+ 4, as: UInt16.self)
                    }
                }
            }
        }
    }

    /// A curve at `value` / 65535, between its two nearest knots.
    @inline(__always)
    private static func interpolate(_ table: UnsafePointer<Float>, _ value: UInt16) -> Float {
        let t = Float(value) * (Float(MatrixShaper.knots) / 65_535)
        let i = Int(t)
        let low = table[i]
        return low + (t - Float(i)) * (table[i &+ 1] - low)
    }

    /// sRGB's 16-bit encoding of a linear value (clamped to 0...1).
    @inline(__always)
    private static func encoded(_ linear: Float, _ table: UnsafePointer<Float>) -> UInt16 {
        let t = Swift.min(Swift.max(linear, 0), 1) * Float(MatrixShaper.knots)
        let i = Int(t)
        let low = table[i]
        let value = low + (t - Float(i)) * (table[i &+ 1] - low)
        return UInt16(Swift.min(Swift.max(value, 0), 1) * 65_535 + 0.5)
    }
}
