/// Maps opaque colours to the nearest palette entry (weighted squared distance, see
/// `ColorQuantizer.weights`), remembering recent answers in a direct-mapped cache.
struct PaletteMapper {
    let palette: [UInt32]
    private var cacheKeys: [UInt32]
    private var cacheValues: [UInt8]
    private let channels: [(Int32, Int32, Int32)]

    init(palette: [UInt32]) {
        precondition(!palette.isEmpty && palette.count <= 256)
        self.palette = palette
        channels = palette.map { (Int32($0 & 0xFF), Int32($0 >> 8 & 0xFF), Int32($0 >> 16 & 0xFF)) }
        cacheKeys = [UInt32](repeating: 0, count: 1 << 16)
        cacheValues = [UInt8](repeating: 0, count: 1 << 16)
    }

    /// An opaque packed colour.
    @inline(__always)
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000
    }

    /// The index of the palette entry nearest `colour` (an exact match when there is one).
    @inline(__always)
    mutating func nearest(_ colour: UInt32) -> UInt8 {
        let slot = Int(truncatingIfNeeded: (colour &* 0x9E37_79B1) >> 16)
        if cacheKeys[slot] == colour { return cacheValues[slot] }
        let r = Int32(colour & 0xFF), g = Int32(colour >> 8 & 0xFF), b = Int32(colour >> 16 & 0xFF)
        let (wr, wg, wb) = (Int32(ColorQuantizer.weights.0), Int32(ColorQuantizer.weights.1), Int32(ColorQuantizer.weights.2))
        var best = 0, bestDistance = Int32.max
        channels.withUnsafeBufferPointer { p in
            for i in 0..<p.count {
                let dr = p[i].0 - r, dg = p[i].1 - g, db = p[i].2 - b
                let d = wr * dr * dr + wg * dg * dg + wb * db * db
                if d < bestDistance { bestDistance = d; best = i; if d == 0 { break } }
            }
        }
        cacheKeys[slot] = colour
        cacheValues[slot] = UInt8(best)
        return UInt8(best)
    }
}
