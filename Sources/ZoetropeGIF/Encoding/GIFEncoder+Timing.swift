import Zoetrope

extension GIFEncoder {
    /// The delay written for `duration`, in centiseconds (GIF's unit), under the rule that
    /// browsers show what was asked:
    ///
    /// - a duration of 10 ms or less is written rounded (0 or 1 cs): browsers, and Zoetrope's
    ///   default `DelayPolicy`, show such a frame for 100 ms, exactly as they show the source;
    /// - a longer duration is rounded to the nearest centisecond but written as at least 2 cs,
    ///   because a delay of 0 or 1 cs would be shown for 100 ms: 11–14 ms becomes 20 ms,
    ///   the closest a browser honours;
    /// - at most 65535 cs (655.35 s), GIF's 16-bit limit.
    package static func centiseconds(for duration: FrameDuration) -> Int {
        let cs = (Int128(duration.numerator) * 100 + Int128(duration.denominator) / 2) / Int128(duration.denominator)
        let rounded = Int(min(cs, 65535))
        if duration <= .milliseconds(10) { return rounded }
        return max(2, rounded)
    }

    /// The most plays a GIF stores: NETSCAPE2.0 loop value 65535, plus the first play.
    public static let maximumPlays = 65536

    /// The NETSCAPE2.0 loop value for `loopCount`, or nil when no loop block is written:
    /// infinite → 0; one play → no block; N plays → N − 1, with N above `maximumPlays`
    /// stored as `maximumPlays` (`storedLoopCount(for:)`). Throws for fewer than 1 play.
    package static func netscapeLoopValue(for loopCount: LoopCount) throws(AnimatedImageError) -> Int? {
        switch loopCount.capped(at: maximumPlays) {
        case .infinite: return 0
        case .plays(let n):
            guard n >= 1 else {
                throw .invalidArgument("GIF stores 1…65536 plays (or forever), got \(n)")
            }
            return n == 1 ? nil : n - 1
        }
    }

    /// `loopCount` with more than `maximumPlays` plays lowered to `maximumPlays`.
    public func storedLoopCount(for loopCount: LoopCount) -> LoopCount {
        loopCount.capped(at: GIFEncoder.maximumPlays)
    }
}
