/// LZW-aware lossy compression: rewrites a frame's indices so that giflib's exact LZW
/// encoder emits fewer codes. It runs the encoder's own dictionary (the same codes, the
/// same clear at 4095) and, where the dictionary has no string for the next pixel, extends
/// the current string with a child whose colour is within `budget` of the pixel's, so a
/// string matches longer at the cost of a bounded error on that pixel.
///
/// Each string starts with its exact first pixel (the decoder builds its next entry from
/// it), transparent pixels are never replaced and never replace, and every replaced pixel
/// is within `budget` of its source colour (Euclidean distance in 8-bit RGB).
///
/// One value serves every frame of a writer: its dictionary (2.6 MB) is allocated once and
/// emptied entry by entry between frames.
struct GIFLossyLZW {
    private static let maxCode = 4095
    /// How deep the search branches over near colours; past it a string extends exactly.
    private static let maxBranchDepth = 64
    // The frame's settings (`apply`).
    private var budgetSquared = 0
    private var colours: [UInt32] = []
    private var transparent: Int?
    private var literalCount = 0
    /// `child[code << 8 | index]`: the code of that string extended by `index`, or 0.
    private var child = [UInt16](repeating: 0, count: (GIFLossyLZW.maxCode + 1) << 8)
    /// Per code: its first child and next sibling (0 = none), and its last index, to walk
    /// the children of a string.
    private var firstChild = [UInt16](repeating: 0, count: GIFLossyLZW.maxCode + 1)
    private var nextSibling = [UInt16](repeating: 0, count: GIFLossyLZW.maxCode + 1)
    private var lastIndex = [UInt8](repeating: 0, count: GIFLossyLZW.maxCode + 1)
    private var parent = [UInt16](repeating: 0, count: GIFLossyLZW.maxCode + 1)
    private var nextCode = 2

    /// An empty dictionary.
    init() {}

    private func distanceSquared(_ a: Int, _ b: Int) -> Int {
        guard a < colours.count, b < colours.count else { return Int.max }
        let x = colours[a], y = colours[b]
        let dr = Int(x & 0xFF) - Int(y & 0xFF)
        let dg = Int(x >> 8 & 0xFF) - Int(y >> 8 & 0xFF)
        let db = Int(x >> 16 & 0xFF) - Int(y >> 16 & 0xFF)
        return dr * dr + dg * dg + db * db
    }

    /// Empties the dictionary, as the encoder's clear code does: only the entries made.
    private mutating func reset() {
        for code in (literalCount + 2)..<nextCode {
            child[Int(parent[code]) << 8 | Int(lastIndex[code])] = 0
            firstChild[code] = 0
            nextSibling[code] = 0
        }
        for literal in 0..<literalCount { firstChild[literal] = 0 }
        nextCode = literalCount + 2
    }

    private mutating func add(parent: Int, index: UInt8) {
        guard nextCode < GIFLossyLZW.maxCode else {
            reset()
            return
        }
        let code = UInt16(nextCode)
        child[parent << 8 | Int(index)] = code
        lastIndex[nextCode] = index
        self.parent[nextCode] = UInt16(parent)
        nextSibling[nextCode] = firstChild[parent]
        firstChild[parent] = code
        nextCode += 1
    }

    /// Rewrites `indices` (one frame, row by row) in place, for a frame whose colour table
    /// has `tableSize` entries (giflib's code size follows the table, padded to a power of
    /// two, at least 4), `colours` packed as `PaletteMapper.pack`, each replaced pixel within
    /// `budget` of its own.
    mutating func apply(to indices: inout [UInt8], colours: [UInt32], transparent: Int?, tableSize: Int, budget: Int) {
        reset()  // the previous frame's entries, with its literal count
        var bits = 2
        while 1 << bits < tableSize { bits += 1 }
        literalCount = 1 << bits
        nextCode = literalCount + 2
        self.colours = colours
        self.transparent = transparent
        budgetSquared = budget * budget
        let n = indices.count
        guard n > 1 else { return }
        var path: [UInt16] = [], best: [UInt16] = []
        var p = 0
        while p < n {
            // The longest string from `p` whose pixels are each exact or within the budget:
            // a search of the dictionary under the first pixel, exact children first, so a
            // tie keeps the exact pixels.
            path.removeAll(keepingCapacity: true)
            best.removeAll(keepingCapacity: true)
            search(code: Int(indices[p]), at: p + 1, indices: indices, path: &path, best: &best)
            for (offset, code) in best.enumerated() { indices[p + 1 + offset] = lastIndex[Int(code)] }
            let q = p + 1 + best.count
            let code = best.last.map(Int.init) ?? Int(indices[p])
            if q < n { add(parent: code, index: indices[q]) }
            p = q
        }
    }

    /// Extends `path` (the codes after the first pixel) from `code` at pixel `q`, keeping in
    /// `best` the longest found.
    private func search(code: Int, at q: Int, indices: [UInt8], path: inout [UInt16], best: inout [UInt16]) {
        if path.count > best.count { best = path }
        guard q < indices.count else { return }
        if path.count >= GIFLossyLZW.maxBranchDepth {
            // Deep in a long string (a large flat area): exact pixels only, in a loop, so the
            // search never recurses deeper than this on any thread's stack.
            var c = code, next = q
            let depth = path.count
            while next < indices.count, case let e = child[c << 8 | Int(indices[next])], e != 0 {
                path.append(e)
                c = Int(e)
                next += 1
            }
            if path.count > best.count { best = path }
            path.removeLast(path.count - depth)
            return
        }
        let wanted = Int(indices[q])
        let exact = child[code << 8 | wanted]
        if exact != 0 {
            path.append(exact)
            search(code: Int(exact), at: q + 1, indices: indices, path: &path, best: &best)
            path.removeLast()
        }
        guard wanted != transparent else { return }
        var c = Int(firstChild[code])
        while c != 0 {
            let k = Int(lastIndex[c])
            if k != wanted, k != transparent, distanceSquared(k, wanted) <= budgetSquared {
                path.append(UInt16(c))
                search(code: c, at: q + 1, indices: indices, path: &path, best: &best)
                path.removeLast()
            }
            c = Int(nextSibling[c])
        }
    }
}
