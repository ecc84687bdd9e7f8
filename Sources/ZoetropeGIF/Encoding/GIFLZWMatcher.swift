/// Chooses a frame's indices so that giflib's exact LZW encoder emits fewer codes. It runs
/// the encoder's own dictionary (the same codes, the same clear at 4095) and, at each
/// string, takes the longest one the dictionary holds whose every pixel is acceptable:
/// - its own index;
/// - the transparent index, where the pixel is *flexible* (it shows the same colour as
///   the canvas under it, so leaving it transparent changes nothing on screen);
/// - with a `budget`, an index whose colour's squared distance from the pixel's (8-bit RGB)
///   is at most the budget (lossy compression), or at most `heldBudget` on the pixels
///   marked `held`.
///
/// Among strings of the same length the one with the least squared error wins, and a
/// flexible first pixel starts whichever string is longer. Truly transparent pixels stay
/// transparent, and nothing opaque becomes transparent unless it is flexible.
///
/// One value serves every frame of a writer: its dictionary (2.6 MB) is allocated once and
/// emptied entry by entry between frames.
struct GIFLZWMatcher {
    private static let maxCode = 4095
    /// How deep the search branches; past it a string extends over exact pixels (its own
    /// index, or the transparent one where flexible) only.
    private static let maxBranchDepth = 64
    // The frame's settings (`apply`).
    private var budget = 0
    /// The pixels that take `heldBudget` instead (nil: none).
    private var held: [Bool]?
    private var heldBudget = 0
    private var colours: [UInt32] = []
    /// The transparent index, or -1.
    private var transparent = -1
    private var literalCount = 0
    /// `child[code << 8 | index]`: the code of that string extended by `index`, or 0.
    private var child = [UInt16](repeating: 0, count: (GIFLZWMatcher.maxCode + 1) << 8)
    /// Per code: its first child and next sibling (0 = none), and its last index, to walk
    /// the children of a string.
    private var firstChild = [UInt16](repeating: 0, count: GIFLZWMatcher.maxCode + 1)
    private var nextSibling = [UInt16](repeating: 0, count: GIFLZWMatcher.maxCode + 1)
    private var lastIndex = [UInt8](repeating: 0, count: GIFLZWMatcher.maxCode + 1)
    private var parent = [UInt16](repeating: 0, count: GIFLZWMatcher.maxCode + 1)
    private var nextCode = 2
    // The search's scratch: the codes after the first pixel, and the best found.
    private var path: [UInt16] = []
    private var pathCost = 0
    private var best: [UInt16] = []
    private var bestCost = 0
    /// The best string's length; while `bestInPath`, `best` is not yet filled and the string
    /// is `path`'s first `bestLength` codes (see `keepPath`).
    private var bestLength = 0
    private var bestInPath = false

    /// An empty dictionary.
    init() {}

    /// Longer, or as long with less squared error.
    @inline(__always)
    private func better(_ length: Int, _ cost: Int, than bestLength: Int, _ bestCost: Int) -> Bool {
        length > bestLength || (length == bestLength && cost < bestCost)
    }

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

    /// Adds `parent` + `index` (the caller has checked that the table has room).
    private mutating func add(parent: Int, index: UInt8) {
        let code = UInt16(nextCode)
        child[parent << 8 | Int(index)] = code
        lastIndex[nextCode] = index
        self.parent[nextCode] = UInt16(parent)
        nextSibling[nextCode] = firstChild[parent]
        firstChild[parent] = code
        nextCode += 1
    }

    /// Takes back the entry `add` made last.
    private mutating func removeLast(parent: Int, index: UInt8) {
        nextCode -= 1
        child[parent << 8 | Int(index)] = 0
        firstChild[parent] = nextSibling[nextCode]
        nextSibling[nextCode] = 0
    }

    /// Rewrites `indices` (one frame, row by row) in place, for a frame whose colour table
    /// has `tableSize` entries (giflib's code size follows the table, padded to a power of
    /// two, at least 4), `colours` packed as `PaletteMapper.pack`. `flexible` (nil: none)
    /// marks the pixels that may take `transparent` instead; with a `budget` above 0 a pixel
    /// may take any colour whose squared distance from its own is at most `budget`, or
    /// `heldBudget` where `held` (nil: none) marks it. Returns the bits of the codes the
    /// encoder writes for the result (clear and end codes included, sub-block framing not),
    /// so that ways of laying out one frame can be compared.
    @discardableResult
    mutating func apply(
        to indices: inout [UInt8], flexible: [Bool]? = nil, held: [Bool]? = nil, colours: [UInt32],
        transparent: Int?, tableSize: Int, budget: Int, heldBudget: Int = 0
    ) -> Int {
        self.held = held
        self.heldBudget = heldBudget
        reset()  // the previous frame's entries, with its literal count
        var bits = 2
        while 1 << bits < tableSize { bits += 1 }
        literalCount = 1 << bits
        nextCode = literalCount + 2
        self.colours = colours
        self.transparent = transparent ?? -1
        self.budget = budget
        let n = indices.count
        var previous = -1  // the code of the string before, whose entry the next pixel completes
        var p = 0
        var chosen: [UInt16] = []
        // The encoder's code width, as it grows with the table, and the bits written so far
        // (the clear code that starts the data first).
        var width = bits + 1, written = width
        while p < n {
            if previous >= 0 { written += width }  // the string before ends here
            if previous >= 0, nextCode >= GIFLZWMatcher.maxCode {
                reset()  // the encoder's clear code takes the place of this entry
                previous = -1
                written += width
                width = bits + 1
            }
            // A flexible first pixel starts whichever string is better (transparent on a tie).
            let own = indices[p]
            var first = own
            start(with: own, at: p, previous: previous, indices: indices, flexible: flexible)
            if let flexible, flexible[p], self.transparent >= 0, Int(own) != self.transparent {
                swap(&chosen, &best)
                let chosenCost = bestCost
                start(with: UInt8(self.transparent), at: p, previous: previous, indices: indices, flexible: flexible)
                if better(chosen.count, chosenCost, than: best.count, bestCost) {
                    swap(&chosen, &best)
                    bestCost = chosenCost
                } else {
                    first = UInt8(self.transparent)
                }
            }
            indices[p] = first
            if previous >= 0 {
                add(parent: previous, index: first)
                if nextCode > 1 << width, width < 12 { width += 1 }
            }
            for (offset, code) in best.enumerated() { indices[p + 1 + offset] = lastIndex[Int(code)] }
            previous = best.last.map(Int.init) ?? Int(first)
            p += 1 + best.count
        }
        return previous >= 0 ? written + 2 * width : written  // the last string and the end code
    }

    /// The longest acceptable string from pixel `p` that starts with `first`, into `best`,
    /// with the entry the encoder makes just before it (`previous` + `first`) in place.
    private mutating func start(with first: UInt8, at p: Int, previous: Int, indices: [UInt8], flexible: [Bool]?) {
        if previous >= 0 { add(parent: previous, index: first) }
        path.removeAll(keepingCapacity: true)
        best.removeAll(keepingCapacity: true)
        pathCost = 0
        bestCost = 0
        bestLength = 0
        bestInPath = false
        search(code: Int(first), at: p + 1, indices: indices, flexible: flexible)
        assert(!bestInPath && path.isEmpty, "the search backs out of every code it tried")
        if previous >= 0 { removeLast(parent: previous, index: first) }
    }

    /// Extends `path` from `code` at pixel `q`, keeping in `best` the longest found (the
    /// cheapest of the longest).
    private mutating func search(code: Int, at q: Int, indices: [UInt8], flexible: [Bool]?) {
        if better(path.count, pathCost, than: bestLength, bestCost) {
            keepPath()
        }
        guard q < indices.count else { return }
        if path.count >= GIFLZWMatcher.maxBranchDepth {
            // Deep in a long string (a large flat area): exact pixels only, in a loop, so the
            // search never recurses deeper than this on any thread's stack. Transparent first
            // here: it runs on through unchanged areas (own first was 5 % bigger on timer.gif).
            var c = code, next = q
            let depth = path.count
            while next < indices.count {
                var e: UInt16 = 0
                if transparent >= 0, flexible?[next] == true { e = child[c << 8 | transparent] }
                if e == 0 { e = child[c << 8 | Int(indices[next])] }
                guard e != 0 else { break }
                path.append(e)
                c = Int(e)
                next += 1
            }
            if better(path.count, pathCost, than: bestLength, bestCost) {
                keepPath()
            }
            shortenPath(to: depth)
            return
        }
        let wanted = Int(indices[q])
        // The pixel's own index first, so that on a tie it wins (measured: 0.3 % smaller
        // than transparent first), then transparent where flexible.
        let exact = child[code << 8 | wanted]
        if exact != 0 { extend(exact, cost: 0, at: q, indices: indices, flexible: flexible) }
        guard wanted != transparent else { return }
        if transparent >= 0, flexible?[q] == true, case let kept = child[code << 8 | transparent], kept != 0 {
            extend(kept, cost: 0, at: q, indices: indices, flexible: flexible)
        }
        let limit = held?[q] == true ? heldBudget : budget
        guard limit > 0 else { return }
        var c = Int(firstChild[code])
        while c != 0 {
            let k = Int(lastIndex[c])
            if k != wanted, k != transparent, case let d = distanceSquared(k, wanted),
                d <= limit
            {
                extend(UInt16(c), cost: d, at: q, indices: indices, flexible: flexible)
            }
            c = Int(nextSibling[c])
        }
    }

    /// Makes the path so far the best. The copy into `best` waits until the search backs out
    /// of it (`shortenPath`): along a long string each pixel is a new best, and copying the
    /// path each time would cost its length squared.
    private mutating func keepPath() {
        bestLength = path.count
        bestCost = pathCost
        bestInPath = true
    }

    /// Drops `path`'s codes past `count`, first copying the best string out of it when it
    /// is a prefix about to be cut (into `best`'s own storage: an assignment would share the
    /// buffer, and the next `path.append` would allocate and copy the path again).
    private mutating func shortenPath(to count: Int) {
        if bestInPath, count < bestLength {
            best.removeAll(keepingCapacity: true)
            best.append(contentsOf: path[..<bestLength])
            bestInPath = false
        }
        // One code (the common case) without the general range removal, a tenth of the time.
        if path.count == count + 1 { path.removeLast() } else { path.removeLast(path.count - count) }
    }

    private mutating func extend(_ code: UInt16, cost: Int, at q: Int, indices: [UInt8], flexible: [Bool]?) {
        path.append(code)
        pathCost += cost
        search(code: Int(code), at: q + 1, indices: indices, flexible: flexible)
        pathCost -= cost
        shortenPath(to: path.count - 1)
    }

}
