/// A second way to lay out a frame's unchanged pixels, for the writer to code beside the LZW
/// matcher's pixel-by-pixel choice and keep whichever is smaller.
///
/// In coding order (row by row, across row ends), a *stretch* is a run of pixels that need
/// not be drawn: unchanged (`flexible`) or transparent. A stretch of one colour is drawn in
/// that colour: it codes as a run either way and may continue the colour beside it. A stretch
/// of more than one colour is left transparent throughout, one long run where drawing it
/// would break into several. The matcher, choosing pixel by pixel, keeps whichever string is
/// longer at that moment and can break such stretches into many short strings.
struct GIFKeepStretches {
    /// The indices with every stretch of more than one colour transparent.
    var indices: [UInt8]
    /// The pixels still free to be drawn or left transparent: the unchanged ones of
    /// one-colour stretches.
    var flexible: [Bool]

    /// Lays out `indices` (each pixel's own index, `transparent` where it must stay
    /// transparent), whose unchanged pixels `flexible` marks.
    init(indices source: [UInt8], flexible: [Bool], transparent: UInt8) {
        var out = source
        var start = 0
        var colours = 0  // in the current stretch: 0 none yet, 1 one, 2 more than one
        for i in source.indices {
            let own = source[i]
            if !flexible[i], own != transparent {
                colours = 0  // a pixel that must be drawn ends the stretch
                continue
            }
            switch colours {
            case 0:
                start = i
                colours = 1
            case 1 where own != out[i - 1]:
                for j in start..<i { out[j] = transparent }
                colours = 2
            default:
                break
            }
            if colours == 2 { out[i] = transparent }
        }
        indices = out
        self.flexible = source.indices.map { flexible[$0] && out[$0] != transparent }
    }
}
