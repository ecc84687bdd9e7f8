import Testing
import Zoetrope
import ZoetropeUI

@Suite struct UniformTimelineTests {
    private func info(_ durations: [FrameDuration]) -> AnimationInfo {
        AnimationInfo(
            format: .gif, canvasSize: PixelSize(width: 1, height: 1), frameDurations: durations,
            loopCount: .infinite, storedLoopValue: 0)
    }

    private func ms(_ values: Int64...) -> [FrameDuration] { values.map { .milliseconds($0) } }

    @Test func theIntervalIsTheGCDAndEachFrameRepeatsForItsTicks() {
        let t = info(ms(100, 200, 100)).uniformTimeline()
        #expect(t.interval == .milliseconds(100))
        #expect(t.frames == [0, 1, 1, 2])
        #expect(t.isExact && t.duration == .milliseconds(400))
        let gif = info([.centiseconds(4), .centiseconds(6), .centiseconds(10)]).uniformTimeline()
        #expect(gif.interval == .milliseconds(20) && gif.frames == [0, 0, 1, 1, 1, 2, 2, 2, 2, 2])
    }

    @Test func exactFractionsKeepTheirCommonDivisor() {
        // APNG delays of 1/30 s and 2/30 s: one tick of 1/30 s, no rounding.
        let t = info([FrameDuration(numerator: 1, denominator: 30), FrameDuration(numerator: 2, denominator: 30)]).uniformTimeline()
        #expect(t.interval == FrameDuration(numerator: 1, denominator: 30))
        #expect(t.frames == [0, 1, 1] && t.isExact)
    }

    @Test func theDelayPolicyAppliesBeforeTheGCD() {
        // 0 and 10 ms play as 100 ms under the default policy.
        let t = info(ms(0, 50, 10)).uniformTimeline()
        #expect(t.interval == .milliseconds(50) && t.frames == [0, 0, 1, 2, 2])
        let exact = info(ms(0, 50, 25)).uniformTimeline(delayPolicy: .exact)
        #expect(exact.interval == .milliseconds(25) && exact.frames == [1, 1, 2])
    }

    @Test func aGCDBelowTheFloorBecomesTheFloorAndFramesAreSampled() {
        let t = info(ms(33, 34)).uniformTimeline()
        #expect(t.interval == .milliseconds(10))
        #expect(t.frames == [0, 0, 0, 0, 1, 1, 1])
        #expect(!t.isExact)
        let finer = info(ms(33, 34)).uniformTimeline(minimumInterval: .zero)
        #expect(finer.interval == .milliseconds(1) && finer.frames.count == 67 && finer.isExact)
    }

    @Test func onePlayNeverTakesMoreThanTheTickCap() {
        // 1 ms and 10 s: a 1 ms GCD would need 10,001 ticks.
        let t = info(ms(11, 10_000)).uniformTimeline(minimumInterval: .zero, maximumTicks: 100)
        #expect(t.interval == .milliseconds(101))  // 10,011 ms / 100 ticks, rounded up to a whole unit (1 ms here)
        #expect(t.frames.count == 100)
        #expect(t.frames.filter { $0 == 0 }.count == 1)  // 11 ms: sampled by the first tick only
        #expect(t.frames.first == 0 && t.frames.last == 1 && !t.isExact)
    }

    @Test func durationsWhoseCommonDenominatorIsTooLargeAreTimedInMicroseconds() {
        // The exact common denominator (about 2 × 10^19) does not fit: microseconds are used.
        let t = info([
            FrameDuration(numerator: 100_000_007, denominator: 1_000_000_007),
            FrameDuration(numerator: 200_000_011, denominator: 999_999_937),
            FrameDuration(numerator: 1, denominator: 3), FrameDuration(numerator: 1, denominator: 7),
        ]).uniformTimeline()
        #expect(t.interval == .milliseconds(10))
        #expect(t.frames.count == 78)  // 776,190 µs in 10 ms ticks
        #expect(t.frames.first == 0 && t.frames.last == 3 && !t.isExact)
    }

    @Test func edgeCasesHaveDefinedAnswers() {
        #expect(info([]).uniformTimeline().frames.isEmpty)
        let zeros = info([.zero, .zero, .zero]).uniformTimeline(delayPolicy: .exact)
        #expect(zeros.interval == .milliseconds(10) && zeros.frames == [0, 1, 2] && !zeros.isExact)
        let one = info(ms(70)).uniformTimeline()
        #expect(one.interval == .milliseconds(70) && one.frames == [0])
    }

    @Test func theImageIOPolicyTurnsDurationsUnder11msInto100ms() {
        let policy = DelayPolicy.imageIO
        #expect(policy.displayDuration(for: FrameDuration(numerator: 21, denominator: 2000)) == .milliseconds(100))  // 10.5 ms
        #expect(policy.displayDuration(for: .milliseconds(11)) == .milliseconds(11))
        #expect(policy.displayDuration(for: .zero) == .milliseconds(100))
        // The browser rule keeps 10.5 ms.
        #expect(
            DelayPolicy.browser.displayDuration(for: FrameDuration(numerator: 21, denominator: 2000))
                == FrameDuration(numerator: 21, denominator: 2000))
    }
}
