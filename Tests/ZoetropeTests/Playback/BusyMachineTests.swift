import Foundation
import Testing
import ZoetropeTestSupport

@testable import Zoetrope

/// The player and display scenarios again, while spinning threads occupy every core: what
/// they assert must hold on a loaded machine, not only on a quiet one (frames late, a main
/// actor served late, skips the player documents and counts).
@Suite struct BusyMachineTests {
    @MainActor @Test func playerAndDisplayScenariosHoldWhileEveryCoreIsBusy() async throws {
        let busy = BusyThreads()
        defer { busy.stop() }
        try await PlaybackImageAndClockTests.timerClockHopsInOrderScenario()
        try await PlaybackImageAndClockTests.stopDropsQueuedFramesScenario()
        try await PlaybackImageAndClockTests.blockedMainActorQueueIsBoundedScenario()
        PlaybackClockAndDisplayTests.playerOnTimerClockScenario()
        PlaybackClockAndDisplayTests.workerPoolScenario()
        // The main actor blocked while a timer clock plays: however many frames pile up,
        // the view gets them in order less the skips the player reports.
        let clock = TimerClock()
        defer { clock.invalidate() }
        let view = MainActorRecordingView()
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 3, duration: .milliseconds(20)), clock: clock,
            display: view, configuration: PlayerConfiguration(memoryPressure: nil))
        player.play()
        for _ in 0..<5 {
            usleep(200_000)  // blocks the main actor
            try await Task.sleep(for: .milliseconds(20))
        }
        player.pause()
        #expect(
            await waitFor {
                let d = player.diagnostics
                return view.shown.count + d.framesSkippedByDisplay == d.framesShown
            })
        let d = player.diagnostics
        #expect(
            DisplayOrder.violations(
                shown: view.shown, frameCount: 3, produced: d.framesShown,
                skipped: d.framesSkippedByDisplay) == [], "\(view.shown)")
        print("busy machine: \(d.framesShown) frames shown, \(d.framesSkippedByDisplay) skipped by the blocked main actor")
    }
}
