import Zoetrope

extension AnimationInfo {
    /// The animation on one fixed tick: the interval is the greatest common divisor of the
    /// display durations, and each frame repeats for as many ticks as it lasts. For
    /// 100, 200 and 100 ms that is 100 ms and frames `[0, 1, 1, 2]`.
    ///
    /// Durations without a useful common divisor are bounded two ways, so the result is
    /// always small: the interval is never below `minimumInterval` (33 ms and 34 ms have a
    /// GCD of 1 ms; with the 10 ms floor they become 10 ms ticks, frames
    /// `[0, 0, 0, 0, 1, 1, 1]`), and one play never takes more than `maximumTicks` ticks
    /// (the interval grows to `total / maximumTicks`, rounded up). When either bound
    /// applies, frames are sampled at the start of each tick and `isExact` is false.
    ///
    /// Frames whose display duration is zero (possible with `DelayPolicy.exact`) take no
    /// tick. An animation whose every display duration is zero shows each frame for one
    /// `minimumInterval` tick; one without frames has no ticks.
    ///
    /// - Parameters:
    ///   - delayPolicy: turns stored durations into display durations (`.default`: 10 ms
    ///     or less plays as 100 ms).
    ///   - minimumInterval: the shortest tick (default 10 ms, the shortest delay browsers
    ///     honour). Zero means no floor.
    ///   - maximumTicks: the most ticks one play may take (at least 1).
    public func uniformTimeline(
        delayPolicy: DelayPolicy = .default, minimumInterval: FrameDuration = .milliseconds(10),
        maximumTicks: Int = 10_000
    ) -> UniformTimeline {
        let durations = displayDurations(delayPolicy)
        let floorInterval = minimumInterval.isZero ? FrameDuration.milliseconds(1) : minimumInterval
        guard !durations.isEmpty else { return UniformTimeline(interval: floorInterval, frames: [], isExact: true) }
        guard let units = TimelineUnits(durations, minimumInterval: minimumInterval) else {
            return UniformTimeline(interval: floorInterval, frames: Array(durations.indices), isExact: false)
        }
        let maxTicks = Int128(max(1, maximumTicks))
        var interval = max(units.gcd, units.minimum)
        if (units.total + interval - 1) / interval > maxTicks {
            interval = (units.total + maxTicks - 1) / maxTicks
        }
        let ticks = Int((units.total + interval - 1) / interval)
        var frames: [Int] = []
        frames.reserveCapacity(ticks)
        var frame = 0
        var frameEnd = units.durations[0]
        for k in 0..<ticks {
            let t = Int128(k) * interval
            while frameEnd <= t, frame + 1 < units.durations.count {
                frame += 1
                frameEnd += units.durations[frame]
            }
            frames.append(frame)
        }
        let isExact = units.durations.allSatisfy { $0 % interval == 0 }
        return UniformTimeline(interval: units.duration(interval), frames: frames, isExact: isExact)
    }
}

/// Durations as whole multiples of one unit (1 / `perSecond` s), exact when the common
/// denominator fits, otherwise rounded to microseconds.
private struct TimelineUnits {
    let perSecond: Int128
    let durations: [Int128]
    let total: Int128
    let gcd: Int128
    let minimum: Int128

    /// Nil when every duration is zero.
    init?(_ values: [FrameDuration], minimumInterval: FrameDuration) {
        let limit = Int128(1) << 100
        var common = Int128(minimumInterval.denominator)
        for d in values where !d.isZero && common <= limit {
            common = common / Self.gcd(common, Int128(d.denominator)) * Int128(d.denominator)
        }
        if common <= Int128(1) << 62, let exact = Self.scaled(values, by: common, exact: true) {
            perSecond = common
            durations = exact
        } else {
            perSecond = 1_000_000
            durations = Self.scaled(values, by: perSecond, exact: false) ?? values.map { _ in 0 }
        }
        var total: Int128 = 0, g: Int128 = 0
        for u in durations {
            total += u
            g = Self.gcd(g, u)
        }
        guard total > 0 else { return nil }
        self.total = total
        self.gcd = g
        // ceil(minimumInterval × perSecond)
        let num = Int128(minimumInterval.numerator) * perSecond
        let den = Int128(minimumInterval.denominator)
        minimum = (num + den - 1) / den
    }

    /// Each value × `perSecond`, exactly (nil if one is not whole) or rounded; nil if the
    /// total could pass 2^120.
    private static func scaled(_ values: [FrameDuration], by perSecond: Int128, exact: Bool) -> [Int128]? {
        var out: [Int128] = []
        out.reserveCapacity(values.count)
        var total: Int128 = 0
        for d in values {
            let num = Int128(d.numerator) * perSecond
            let den = Int128(d.denominator)
            if exact, num % den != 0 { return nil }
            let u = exact ? num / den : (num + den / 2) / den
            total += u
            if total > Int128(1) << 120 { return nil }
            out.append(u)
        }
        return out
    }

    /// `units` as an exact duration (clamped to what a `FrameDuration` holds).
    func duration(_ units: Int128) -> FrameDuration {
        let g = Self.gcd(units, perSecond)
        return FrameDuration(numerator: Int64(clamping: units / g), denominator: Int64(clamping: perSecond / g))
    }

    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
