import Testing
import Zoetrope

@Suite struct FrameDurationTests {
    @Test func unitsReduceToTheSameExactValue() {
        #expect(FrameDuration.centiseconds(5) == .milliseconds(50))
        #expect(FrameDuration(numerator: 1, denominator: 30) == FrameDuration(numerator: 1001, denominator: 30030))
        #expect(FrameDuration(numerator: 3, denominator: 0) == .zero, "APNG den 0 is the coder's business; zero is not a trap")
    }

    @Test func thirtyFramesOfAThirtiethSumToExactlyOneSecond() {
        let third = FrameDuration(numerator: 1, denominator: 30)
        let sum = (0..<30).reduce(FrameDuration.zero) { acc, _ in acc + third }
        #expect(sum == .seconds(1))
        #expect(third * 3000 == .seconds(100))
        #expect(FrameDuration.seconds(1) - third * 29 == third)
        #expect(third - .seconds(1) == .zero, "differences clamp at zero")
    }

    @Test func milliseconds() {
        #expect(FrameDuration(numerator: 1, denominator: 30).milliseconds == 1000.0 / 30)
        #expect(FrameDuration.milliseconds(50).duration == .milliseconds(50))
        #expect(FrameDuration.milliseconds(50).description == "50 ms")
    }

    @Test func browserDelayPolicyClampsTenMillisecondsAndBelow() {
        let p = DelayPolicy.default
        #expect(p.displayDuration(for: .zero) == .milliseconds(100))
        #expect(p.displayDuration(for: .milliseconds(10)) == .milliseconds(100))
        #expect(p.displayDuration(for: .centiseconds(1)) == .milliseconds(100))
        #expect(p.displayDuration(for: .microseconds(10_001)) == .microseconds(10_001))
        #expect(p.displayDuration(for: .milliseconds(20)) == .milliseconds(20))
        #expect(DelayPolicy.exact.displayDuration(for: .zero) == .zero)
        let custom = DelayPolicy.clamping(atOrBelow: .milliseconds(20), to: .milliseconds(20))
        #expect(custom.displayDuration(for: .milliseconds(15)) == .milliseconds(20))
        #expect(custom.clamps(.milliseconds(15)) && !custom.clamps(.milliseconds(25)))
    }

    @Test func loopCountDescribesPlays() {
        #expect(LoopCount.infinite.description == "infinite")
        #expect(LoopCount.plays(3).finitePlays == 3)
        #expect(LoopCount.infinite.finitePlays == nil)
    }
}
