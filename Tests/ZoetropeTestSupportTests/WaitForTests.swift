import Testing
import ZoetropeTestSupport

/// `waitFor`: true as soon as the condition holds, false once the bound has passed.
@Suite struct WaitForTests {
    @Test func aConditionThatHoldsReturnsAtOnce() async {
        let clock = ContinuousClock()
        var checks = 0
        let start = clock.now
        #expect(
            await waitFor(60) {
                checks += 1
                return true
            })
        #expect(checks == 1)
        #expect(clock.now - start < .seconds(1))
    }

    @Test func aConditionThatComesToHoldEndsTheWait() async {
        var checks = 0
        #expect(
            await waitFor(60) {
                checks += 1
                return checks == 5
            })
        #expect(checks == 5)
    }

    @Test func aConditionThatNeverHoldsTimesOutAfterTheBound() async {
        let clock = ContinuousClock()
        let start = clock.now
        var checks = 0
        #expect(
            await waitFor(0.3) {
                checks += 1
                return false
            } == false)
        let waited = clock.now - start
        #expect(waited >= .milliseconds(300))
        #expect(checks >= 2, "checked between the suspensions and once more at the deadline")
    }

    @MainActor @Test func mainActorWorkRunsWhileTheMainActorWaits() async {
        var ran = false
        Task { @MainActor in ran = true }
        #expect(await waitFor(60) { ran })
    }
}
