import Zoetrope

/// One frame ready for giflib: its rectangle, palette and indices.
struct GIFFramePlan {
    /// Where the frame goes on the canvas.
    var rect: PixelRect
    /// Opaque packed colours; the frame's colour table (global or local).
    var palette: [UInt32]
    /// The transparent index, if the frame uses one.
    var transparentIndex: Int?
    /// `rect.width × rect.height` palette indices, row by row.
    var indices: [UInt8]
    /// Pixels that `transparentIndex` may take instead of their index (unchanged ones,
    /// which show the same either way), for the LZW matcher; nil: none.
    var flexible: [Bool]? = nil
    /// Whether the frame uses the global table (no local table is written).
    var usesGlobalTable = false

    /// Entries the colour table needs (palette plus the transparent slot).
    var tableCount: Int { max(palette.count, (transparentIndex ?? -1) + 1) }

    /// The LZW minimum code size the indices need (2…8): on a local table its size's
    /// bits, on the global table the bits of the highest index used.
    var codeSize: Int {
        var highest = tableCount - 1
        if usesGlobalTable { highest = max(Int(indices.max() ?? 0), transparentIndex ?? 0) }
        return GIFFramePlanner.codeSize(highest + 1)
    }
}
