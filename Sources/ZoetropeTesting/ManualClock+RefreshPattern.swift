import Zoetrope

extension ManualClock {
    /// Ticks `pattern` from time 0 while the target time is below `duration`, calling
    /// `after` after each tick (a test checks what was shown). Returns the tick count.
    @discardableResult
    public func run(_ pattern: RefreshPattern, for duration: Duration, after: (FrameTick) -> Void = { _ in }) -> Int {
        let end = duration.wholeNanoseconds
        var k = 0
        while true {
            let t = pattern.nanoseconds(ofTick: k)
            if t >= end { break }
            tick(atNanoseconds: t)
            after(FrameTick(targetNanoseconds: t, sequence: k))
            k += 1
        }
        return k
    }
}
