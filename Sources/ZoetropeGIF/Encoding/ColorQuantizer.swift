/// Reduces a histogram of colours to a palette: Wu's variance-minimising box cuts over a
/// 32×32×32 grid of moments, then k-means (Lloyd) refinement on the real colours.
///
/// Distances are measured in weighted sRGB: the gamma-encoded values (already roughly
/// perceptual in spacing) with green weighted above red and red above blue
/// (`ColorQuantizer.weights`, 5 : 6 : 4), a mild step toward luminance sensitivity that
/// keeps PSNR close to plain RGB.
struct ColorQuantizer {
    /// Channel weights (R, G, B) of the squared distance.
    static let weights: (Int, Int, Int) = (5, 6, 4)
    /// k-means passes after the Wu cuts.
    var refinementPasses = 3
    /// At most this many distinct colours take part in refinement (evenly sampled beyond it).
    var refinementSampleLimit = 40_000

    /// A palette of at most `maxColours` opaque packed colours for `histogram`. A histogram
    /// that already fits is returned exactly (most frequent first).
    func palette(for histogram: ColorHistogram, maxColours: Int) -> [UInt32] {
        let entries = histogram.entries
        if entries.count <= maxColours { return entries.map(\.colour) }
        var boxes = WuBoxes(entries: entries)
        var palette = boxes.cut(into: maxColours)
        refine(&palette, entries: entries)
        return palette
    }

    /// Lloyd iterations: assign each colour to its nearest entry, move entries to their means.
    func refine(_ palette: inout [UInt32], entries: [(colour: UInt32, count: UInt32)]) {
        let step = max(1, entries.count / refinementSampleLimit)
        for _ in 0..<refinementPasses {
            var sums = [(Double, Double, Double, Double)](repeating: (0, 0, 0, 0), count: palette.count)
            var mapper = PaletteMapper(palette: palette)
            var i = 0
            while i < entries.count {
                let (c, n) = entries[i]
                let k = Int(mapper.nearest(c))
                let w = Double(n)
                sums[k].0 += Double(c & 0xFF) * w
                sums[k].1 += Double(c >> 8 & 0xFF) * w
                sums[k].2 += Double(c >> 16 & 0xFF) * w
                sums[k].3 += w
                i += step
            }
            var moved = false
            for k in 0..<palette.count where sums[k].3 > 0 {
                let s = sums[k]
                let c = PaletteMapper.pack(UInt8((s.0 / s.3).rounded()), UInt8((s.1 / s.3).rounded()), UInt8((s.2 / s.3).rounded()))
                if c != palette[k] { palette[k] = c; moved = true }
            }
            if !moved { break }
        }
    }
}
