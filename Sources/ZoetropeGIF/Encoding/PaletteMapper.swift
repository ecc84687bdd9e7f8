/// Maps opaque colours to the nearest palette entry (weighted squared distance, see
/// `ColorQuantizer.weights`), remembering recent answers in a direct-mapped cache.
struct PaletteMapper {
    let palette: [UInt32]
    private var cacheKeys: [UInt32]
    private var cacheValues: [UInt8]
    /// Palette channels sorted by green, with their palette index: the search starts at the
    /// entry nearest in green and stops when the green distance alone exceeds the best.
    private let channels: [(Int32, Int32, Int32, UInt8)]
    /// For each green value, the first sorted entry whose green is at least it.
    private let start: [Int]

    init(palette: [UInt32]) {
        precondition(!palette.isEmpty && palette.count <= 256)
        self.palette = palette
        channels = palette.enumerated().map { (Int32($1 & 0xFF), Int32($1 >> 8 & 0xFF), Int32($1 >> 16 & 0xFF), UInt8($0)) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.3 < $1.3 }
        var start = [Int](repeating: channels.count, count: 257)
        var k = channels.count
        for g in stride(from: 256, through: 0, by: -1) {
            while k > 0 && channels[k - 1].1 >= Int32(g) { k -= 1 }
            start[g] = k
        }
        self.start = start
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
        var best: UInt8 = 0, bestDistance = Int32.max
        channels.withUnsafeBufferPointer { p in
            var up = start[Int(g)], down = up - 1
            while up < p.count || down >= 0 {
                if up < p.count {
                    let dg = p[up].1 - g
                    if wg * dg * dg >= bestDistance {
                        up = p.count
                    } else {
                        let dr = p[up].0 - r, db = p[up].2 - b
                        let d = wr * dr * dr + wg * dg * dg + wb * db * db
                        if d < bestDistance || (d == bestDistance && p[up].3 < best) { bestDistance = d; best = p[up].3 }
                        up += 1
                    }
                }
                if down >= 0 {
                    let dg = p[down].1 - g
                    if wg * dg * dg > bestDistance {
                        down = -1
                    } else {
                        let dr = p[down].0 - r, db = p[down].2 - b
                        let d = wr * dr * dr + wg * dg * dg + wb * db * db
                        if d < bestDistance || (d == bestDistance && p[down].3 < best) { bestDistance = d; best = p[down].3 }
                        down -= 1
                    }
                }
            }
        }
        cacheKeys[slot] = colour
        cacheValues[slot] = best
        return best
    }
}
