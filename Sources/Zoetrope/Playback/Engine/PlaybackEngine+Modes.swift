/// The play order (`PlaybackMode`): the engine walks *positions* 0, 1, … of one play and
/// shows `frame(at:)` of each, so that a bounce, which shows most frames twice per play,
/// still has one well-defined place to stand on, to decode ahead from and to seek to.
extension PlaybackEngine {
    /// Whether the play order turns (a bounce of at least two frames).
    var bouncing: Bool { (mode == .bounce || mode == .reverseBounce) && frameCount > 1 }
    private var reversed: Bool { mode == .reverse || mode == .reverseBounce }
    /// Whether the play order starts from the last frame.
    var reversedOrder: Bool { reversed }

    /// Places in one play that is not the last: n, or 2n − 2 for a bounce (turning frames once).
    var cycleLength: Int { bouncing ? 2 * frameCount - 2 : frameCount }

    /// The last place of the current play. The last play of a bounce returns to its start.
    var lastPosition: Int { bouncing && onLastPlay ? cycleLength : max(0, cycleLength - 1) }

    /// The frame shown at place `p` of a play.
    func frame(at p: Int) -> Int {
        let n = frameCount
        guard n > 0 else { return 0 }
        var q: Int
        if bouncing {
            let c = 2 * n - 2
            q = p % c
            if q >= n { q = c - q }
        } else {
            q = p % n
        }
        return reversed ? n - 1 - q : q
    }

    /// The first place frame `i` is shown at in a play (a bounce's outward leg).
    func position(ofFrame i: Int) -> Int { reversed ? frameCount - 1 - i : i }

    /// The frame a play, seek or stop asked for (nil: none).
    var pendingShow: Int? {
        get { pendingPosition.map { frame(at: $0) } }
        set { pendingPosition = newValue.map { position(ofFrame: $0) } }
    }

    /// Display nanoseconds of place `p`.
    private func duration(at p: Int) -> Int64 { durations[frame(at: p)] }

    /// Display nanoseconds of the current play.
    var playNanoseconds: Int64 {
        guard frameCount > 0 else { return 0 }
        var total: Int64 = 0
        for p in 0...lastPosition { total = min(total + duration(at: p), Int64.max / 4096) }
        return total
    }

    /// How far through the current play, 0…1, in display time.
    var playFraction: Double {
        guard frameCount > 0 else { return 0 }
        if status == .finished { return 1 }
        let p: Int
        let within: Int64
        if let pending = pendingPosition {
            p = pending
            within = pendingProgress / 1000
        } else if current != nil {
            p = position
            within = progress / 1000
        } else {
            return 0
        }
        let total = playNanoseconds
        guard total > 0 else { return 0 }
        var elapsed: Int64 = 0
        for q in 0..<min(p, lastPosition + 1) { elapsed += duration(at: q) }
        elapsed += min(max(0, within), duration(at: p))
        return min(1, Double(elapsed) / Double(total))
    }

    /// Seeks to `nanoseconds` of display time into the current play (clamped to the play).
    mutating func seek(toNanoseconds nanoseconds: Int64, into fx: inout PlaybackEffects) {
        guard frameCount > 0 else { return }
        if status == .finished { playsCompleted = 0 }
        let t = max(0, nanoseconds)
        let last = lastPosition
        var start: Int64 = 0
        var p = 0
        while p < last, start + duration(at: p) <= t {
            start += duration(at: p)
            p += 1
        }
        let offset = min(t - start, duration(at: p))
        seek(toPosition: p, offset: offset * 1000, into: &fx)
    }

    /// Switches the play order, keeping the frame shown (at its first place in the new order).
    mutating func setMode(_ newMode: PlaybackMode, into fx: inout PlaybackEffects) {
        let pendingFrame = pendingShow
        mode = newMode
        if let c = current { position = position(ofFrame: c) }
        pendingShow = pendingFrame
        schedule(into: &fx)
    }
}
