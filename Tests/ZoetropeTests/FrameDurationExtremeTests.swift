import Testing
import Zoetrope

/// Durations a crafted file can store: no operation may trap; exact where the result fits,
/// approximate (within 2⁻⁶³ s) or saturating where it cannot.
@Suite struct FrameDurationExtremeTests {
    /// Four pairwise-coprime APNG delay denominators near 65535: their sum's reduced
    /// denominator needs 64 bits.
    static let coprime: [Int64] = [65535, 65534, 65533, 65531]

    @Test func aSumWhoseDenominatorNeedsSixtyFourBitsIsApproximatedNotTrapped() {
        let parts = Self.coprime.map { FrameDuration(numerator: 1, denominator: $0) }
        let three = parts[0] + parts[1] + parts[2]
        // Three terms still fit: exact.
        #expect(three.denominator == 65535 * 65534 * 65533)
        let four = three + parts[3]
        let expected = Self.coprime.reduce(0.0) { $0 + 1 / Double($1) }
        #expect(abs(four.seconds - expected) < expected * 1e-15)
        #expect(four > three && four - three > .zero)
        #expect(four.denominator > 0 && four.numerator > 0)
        // The same value from the other end: addition order does not matter beyond rounding.
        let reversed = parts.reversed().reduce(FrameDuration.zero, +)
        #expect(abs(reversed.seconds - four.seconds) < expected * 1e-15)
        let info = AnimationInfo(
            format: .apng, canvasSize: PixelSize(width: 1, height: 1),
            frameDurations: parts, loopCount: .infinite, storedLoopValue: 0)
        #expect(info.totalDuration == four)
        #expect(info.totalDuration.duration > .microseconds(61) && info.totalDuration.duration < .microseconds(62))
    }

    @Test func thousandsOfFramesWithCoprimeDenominatorsSumCloseToTheExactValue() {
        let durations = (0..<5000).map { FrameDuration(numerator: Int64(1 + $0 % 7), denominator: 65535 - Int64($0 % 97)) }
        let total = durations.reduce(FrameDuration.zero, +)
        let expected = durations.reduce(0.0) { $0 + $1.seconds }
        #expect(abs(total.seconds - expected) < expected * 1e-12)
        #expect(DelayPolicy.default.displayDuration(for: total) == total)
    }

    @Test func extremeNumeratorsAndDenominatorsSaturateOrApproximate() {
        let max = FrameDuration.maximum
        #expect(max == .seconds(.max))
        #expect(max + .seconds(1) == max)
        #expect(max + max == max)
        #expect(max * .max == max)
        #expect(max * 2 == max)
        #expect(max * -5 == .zero)
        #expect(max - .seconds(1) == .seconds(.max - 1))
        #expect(FrameDuration(numerator: .max, denominator: .max) == .seconds(1))
        let tiny = FrameDuration(numerator: 1, denominator: .max)
        let tiny2 = FrameDuration(numerator: 1, denominator: .max - 1)
        // 1/(2^63−1) + 1/(2^63−2) has no 64-bit fraction; the nearest convergent is 2/(2^63−1) or close.
        let sum = tiny + tiny2
        #expect(sum >= tiny && sum <= tiny2 * 2)
        #expect(tiny * .max == .seconds(1))
        // A value a hair past Int64.max seconds saturates; one just below stays.
        let almost = FrameDuration(numerator: .max, denominator: 2)
        #expect(almost + almost == max)
        #expect(almost + almost + tiny == max)
        #expect(FrameDuration(numerator: .max - 1, denominator: .max) + FrameDuration(numerator: 1, denominator: .max - 1) > .seconds(1) - tiny * 2)
    }

    @Test func conversionsOfTheLongestDurationDoNotTrap() {
        let max = FrameDuration.maximum
        #expect(max.duration == .seconds(Int64.max))
        #expect(max.description == "9.223372036854776e+21 ms")
        #expect(max.milliseconds == Double(Int64.max) * 1000)
        #expect(
            FrameDuration(numerator: .max, denominator: 3).duration
                == .seconds(3_074_457_345_618_258_602) + Duration(secondsComponent: 0, attosecondsComponent: 333_333_333_333_333_333))
        #expect(DelayPolicy.default.displayDuration(for: max) == max)
        #expect(DelayPolicy.default.displayDuration(for: FrameDuration(numerator: 1, denominator: .max)) == .milliseconds(100))
        #expect(!DelayPolicy.default.clamps(max))
    }
}
