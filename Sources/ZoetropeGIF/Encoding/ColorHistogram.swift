/// Distinct opaque colours and how often each occurs: an open-addressing hash table keyed by
/// the packed colour (`r | g << 8 | b << 16 | 0xFF << 24`, so no key is 0, the empty slot).
struct ColorHistogram {
    private(set) var keys: [UInt32]
    private(set) var counts: [UInt32]
    /// Distinct colours held.
    private(set) var count = 0
    private var mask: Int

    /// A table sized for about `expected` distinct colours (it grows when needed).
    init(expected: Int = 256) {
        var size = 64
        while size < expected * 2 { size <<= 1 }
        keys = [UInt32](repeating: 0, count: size)
        counts = [UInt32](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    static func slot(_ key: UInt32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & mask
    }

    /// Counts one more pixel of `colour` (never 0).
    mutating func add(_ colour: UInt32, weight: UInt32 = 1) {
        var i = ColorHistogram.slot(colour, mask)
        while true {
            let k = keys[i]
            if k == colour { counts[i] &+= weight; return }
            if k == 0 { break }
            i = (i + 1) & mask
        }
        keys[i] = colour
        counts[i] = weight
        count += 1
        if count * 2 > keys.count { grow() }
    }

    /// Whether `colour` is present.
    func contains(_ colour: UInt32) -> Bool {
        var i = ColorHistogram.slot(colour, mask)
        while true {
            let k = keys[i]
            if k == colour { return true }
            if k == 0 { return false }
            i = (i + 1) & mask
        }
    }

    /// Every colour and its count, most frequent first (ties by colour, so the order is stable).
    var entries: [(colour: UInt32, count: UInt32)] {
        var out: [(colour: UInt32, count: UInt32)] = []
        out.reserveCapacity(count)
        for i in 0..<keys.count where keys[i] != 0 { out.append((keys[i], counts[i])) }
        out.sort { $0.count != $1.count ? $0.count > $1.count : $0.colour < $1.colour }
        return out
    }

    private mutating func grow() {
        let oldKeys = keys, oldCounts = counts
        keys = [UInt32](repeating: 0, count: oldKeys.count * 2)
        counts = [UInt32](repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for i in 0..<oldKeys.count where oldKeys[i] != 0 { add(oldKeys[i], weight: oldCounts[i]) }
    }
}
