import Testing
import ZoetropeTestSupport

/// `waitFor`: true as soon as the condition holds, false once the bound has passed.
@Suite struct WaitForTests {
    @Test func aConditionThatHoldsReturnsAtOnce() async {
        var checks = 0
        #expect(
            await waitFor(600) {
                checks += 1
                return true
            })
        #expect(checks == 1)  // checked once, before any suspension
    }

    @Test func aConditionThatComesToHoldEndsTheWait() async {
        var checks = 0
        // A bound on a hang only: a busy machine may leave the wait unresumed for a while.
        #expect(
            await waitFor(600) {
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
