import Zoetrope

/// The tick timestamps of a display refresh, computed exactly so that no rounding
/// accumulates over millions of ticks.
public struct RefreshPattern: Hashable, Sendable, CustomStringConvertible {
    /// The refresh rates, in hertz, that consecutive ticks cycle through.
    public let rates: [Int]
    // The tick times are multiples of 1/commonRate seconds: lcm of every rate.
    private let commonRate: Int64
    private let stepsPerCycle: Int64
    private let cumulativeSteps: [Int64]

    /// Ticks at a fixed `hertz` (60, 120, 144…).
    public static func fixed(hertz: Int) -> RefreshPattern { RefreshPattern(rates: [hertz]) }

    /// A variable refresh pattern that moves between 48 and 120 Hz and back.
    public static let variable = RefreshPattern(rates: [120, 100, 90, 72, 60, 48, 60, 72, 90, 100])

    /// Consecutive ticks cycle through `rates` (each at least 1 Hz).
    public init(rates: [Int]) {
        let rates = rates.isEmpty ? [60] : rates.map { max(1, $0) }
        self.rates = rates
        var l: Int64 = 1
        for r in rates { l = l / FrameDuration.gcd(l, Int64(r)) * Int64(r) }
        commonRate = l
        var sums: [Int64] = [0]
        for r in rates { sums.append(sums.last! + l / Int64(r)) }
        cumulativeSteps = sums
        stepsPerCycle = sums.last!
    }

    /// The target time of tick `k` (tick 0 is at 0), in nanoseconds: the exact time, rounded down.
    public func nanoseconds(ofTick k: Int) -> Int64 {
        let n = Int64(rates.count)
        let cycles = Int64(k) / n, rest = Int(Int64(k) % n)
        let steps = cycles * stepsPerCycle + cumulativeSteps[rest]
        return Int64(Int128(steps) * 1_000_000_000 / Int128(commonRate))
    }

    /// The number of ticks whose target time is before `nanoseconds`.
    public func tickCount(before limit: Int64) -> Int {
        // Estimate from the average rate, then step to the exact answer.
        let averageRate = Double(rates.count) * 1e9 / Double(max(1, nanoseconds(ofTick: rates.count)))
        var k = max(0, Int(Double(limit) / 1e9 * averageRate) - 2)
        while k > 0 && nanoseconds(ofTick: k - 1) >= limit { k -= 1 }
        while nanoseconds(ofTick: k) < limit { k += 1 }
        return k
    }

    /// "60 Hz" or "variable 48–120 Hz".
    public var description: String {
        rates.count == 1 ? "\(rates[0]) Hz" : "variable \(rates.min()!)–\(rates.max()!) Hz"
    }
}
