/// The global colour table as it fills: the first frame's colours, a transparent slot, and
/// room for colours later frames bring. The table is written with the screen descriptor
/// at its largest size and patched at the end with its entries, cut to the power of two
/// that holds them (`finalEntries`), so a later frame whose new colours fit the free slots
/// needs no local table and the free slots cost nothing.
struct GIFGlobalTable {
    /// Entries in use (opaque packed colours; the transparent slot holds a placeholder).
    private(set) var colours: [UInt32]
    /// The transparent index, if the table has one.
    let transparent: Int?
    /// Entries written at first (a power of two, 2…256).
    let capacity: Int
    private var index: [UInt32: UInt8] = [:]

    /// A table for a first frame of `palette` (and its transparent index, if any): a still's
    /// holds just its colours, an animation's has room up to 256 (frames that use only low
    /// indices are coded with the bits those need, `GIFFramePlan.codeSize`).
    init(palette: [UInt32], transparentIndex: Int?, animated: Bool = true) {
        var colours = palette
        var t = transparentIndex
        if t == nil, colours.count < 256 { t = colours.count }
        if let t, t >= colours.count { colours += [UInt32](repeating: 0xFF00_0000, count: t + 1 - colours.count) }
        let wanted = animated ? 256 : colours.count
        var capacity = 2
        while capacity < wanted { capacity <<= 1 }
        self.colours = colours
        self.transparent = t
        self.capacity = capacity
        for (i, c) in palette.enumerated() where index[c] == nil { index[c] = UInt8(i) }
    }

    /// The table's entries padded to `capacity`.
    var entries: [UInt32] { colours + [UInt32](repeating: 0xFF00_0000, count: capacity - colours.count) }

    /// The entries in use padded to the smallest power of two that holds them (at least 2):
    /// the table the finished file keeps.
    var finalEntries: [UInt32] {
        var size = 2
        while size < colours.count { size <<= 1 }
        return colours + [UInt32](repeating: 0xFF00_0000, count: size - colours.count)
    }

    /// Global indices for `palette` (each entry's index; the transparent entry maps to the
    /// table's) when they all fit, adding the missing colours to free slots; nil otherwise.
    mutating func indices(for palette: [UInt32], needsTransparent: Bool) -> [UInt8]? {
        if needsTransparent && transparent == nil { return nil }
        let missing = palette.filter { index[$0] == nil }
        guard Set(missing).count <= capacity - colours.count else { return nil }
        for c in missing where index[c] == nil {
            index[c] = UInt8(colours.count)
            colours.append(c)
        }
        return palette.map { index[$0]! }
    }
}
