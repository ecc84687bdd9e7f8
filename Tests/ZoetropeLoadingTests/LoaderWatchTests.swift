import Foundation
import Testing
import ZoetropeCodecs

@testable import ZoetropeLoading

/// The download's inactivity watch does not count time the process could not run as the
/// server's silence.
@Suite struct LoaderWatchTests {
    let start = ContinuousClock.now
    let interval = Duration.milliseconds(250)

    /// A look on time, or a little late, leaves the last activity where it was.
    @Test func aLookOnTimeCreditsNothing() {
        let last = start - .seconds(2)
        #expect(LoaderDownload.activity(last, creditedFor: start, now: start + interval, interval: interval) == last)
        #expect(LoaderDownload.activity(last, creditedFor: start, now: start + .milliseconds(490), interval: interval) == last)
    }

    /// A look 30 s late (every thread of the pool busy for 30 s) moves the last activity 30 s
    /// later, less the interval the watch asked to sleep: a 10 s timeout has not run out.
    @Test func aLookLongAfterTheLastCreditsTheTimeThePoolWasBusy() {
        let last = start - .seconds(2)
        let now = start + interval + .seconds(30)
        let credited = LoaderDownload.activity(last, creditedFor: start, now: now, interval: interval)
        #expect(credited == last + .seconds(30))
        #expect(now - credited == .seconds(2) + interval)
        #expect(now - credited < .seconds(10))
    }
}
