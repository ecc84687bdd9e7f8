import CZoetropeColorKernels
import Zoetrope

/// The conversion of a matrix-shaper RGB profile to sRGB without lcms2: per-channel curve
/// tables, a 3×3 matrix and sRGB's encoding, the three steps lcms2 takes for such a profile.
///
/// RGBA8 runs in C (`CZoetropeColorKernels`): each channel's curve at its 256 values in 16
/// bits, the matrix in `Float` with its rows scaled to encoding-table steps (1/8192 of a
/// linear unit), and the rounded sum read from a byte table of sRGB's encoding that covers
/// every sum the matrix can make (out-of-gamut values included, offset by a bias). The
/// processor picks the kernel at run time: with AVX-512 (VBMI), 64 pixels a step with the
/// curves looked up in registers; otherwise one at a time. Both do the same float
/// operations, so both give the same bytes. RGBA16 interpolates 4,097-knot curve and
/// encoding tables in `Float`. Alpha is left as it is.
///
/// `TransformCache` uses one only where it agrees with lcms2 within 1 (8-bit) on a probe of
/// every grey and 17 levels per channel in all combinations.
final class MatrixShaperTransform: ColorTransform {
    /// Table steps per linear unit.
    static let scale = 8192
    /// Most encoding-table entries (linear values from about −3 to 5): a profile whose
    /// matrix reaches further goes to lcms2.
    static let maxEncodeEntries = 8 * scale

    /// Each channel's curve at v/255 times 65,535: red, then green, then blue.
    private let linear8: [UInt16]
    /// The matrix, row-major, times `scale` / 65,535.
    private let matrix8: [Float]
    /// The encoding-table index of linear 0.
    private let bias: Float
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
        let linear8 = shaper.linear8.map { UInt16((min(max(Double($0), 0), 1) * 65_535).rounded()) }
        // Each output's lowest and highest sum: the per-channel extremes added.
        var low = [Double](repeating: 0, count: 3), high = [Double](repeating: 0, count: 3)
        for k in 0..<3 {
            for c in 0..<3 {
                let terms = (0..<256).map { shaper.matrix[k * 3 + c] * Double(linear8[c * 256 + $0]) / 65_535 }
                low[k] += terms.min()!
                high[k] += terms.max()!
            }
        }
        let unit = Double(Self.scale)
        // Two steps of margin each side for the float sums' rounding (the kernels clamp anyway).
        let lowest = (low.min()! * unit).rounded(.down) - 2, highest = (high.max()! * unit).rounded(.up) + 2
        guard lowest.isFinite, highest.isFinite, highest - lowest + 1 <= Double(Self.maxEncodeEntries) else { return nil }
        let entries = Int(highest - lowest) + 1
        let bias = Int(-lowest)
        self.linear8 = linear8
        matrix8 = shaper.matrix.map { Float($0 * unit / 65_535) }
        self.bias = Float(bias)
        encode8 = (0..<entries).map { i in UInt8(MatrixShaper.encode(Double(i - bias) / unit) * 255 + 0.5) }
        linear16 = shaper.linear16
        let m = shaper.matrix.map(Float.init)
        columns = (0..<3).map { c in SIMD4(m[c], m[3 + c], m[6 + c], 0) }
        var encode16 = (0...MatrixShaper.knots).map { Float(MatrixShaper.encode(Double($0) / Double(MatrixShaper.knots))) }
        encode16.append(encode16[MatrixShaper.knots])
        self.encode16 = encode16
        retainedByteCount =
            linear8.count * 2 + (matrix8.count + linear16.count + encode16.count) * 4 + encode8.count + 3 * 16 + 64
    }

    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        convert(pixels, width: width, height: height, bytesPerRow: bytesPerRow, kernel: -1)
    }

    /// `convert` with one of `CZoetropeColorKernels`' kernels (`ZOETROPE_SHAPER8_…`), or
    /// −1 for the best this processor runs; one it does not run falls back to the best.
    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, kernel: Int32) {
        guard width > 0, height > 0 else { return }
        linear8.withUnsafeBufferPointer { linear in
            matrix8.withUnsafeBufferPointer { matrix in
                encode8.withUnsafeBufferPointer { encode in
                    var table = zoetrope_shaper8(
                        linear: linear.baseAddress, matrix: matrix.baseAddress, bias: bias,
                        last: Int32(encode.count - 1), encode: encode.baseAddress)
                    zoetrope_shaper8_convert(
                        &table, pixels.assumingMemoryBound(to: UInt8.self), width, height, bytesPerRow, kernel)
                }
            }
        }
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
