import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@testable import AppViewSample

/// The app view sample, Examples/AppViewSample/Sample.swift (its `AnimatedImageView` and
/// `demo(path:)` are used here); these tests check
/// what its comments say: the player lines, then the lines that do not involve the player.
@Suite struct AppViewSampleTests {
    /// The sample's player lines with the sample's own view: a @MainActor class that
    /// conforms to `AnimationDisplay` is shown frames on the main actor, in play order; a
    /// main actor kept busy for more than 8 frames (a loaded machine) skips the oldest
    /// waiting frames, as documented, and the player counts them.
    @MainActor @Test func theSampleViewIsShownFramesInOrderOnTheMainActor() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(CodecsFixture.gif(delays: [10, 20, 10]), to: "sample.gif").path
        try await Self.playTheSample(path: path)
    }

    /// The scenario above; the busy-machine test runs it too.
    @MainActor static func playTheSample(path: String) async throws {
        CoderRegistry.shared.registerBuiltInCoders()
        let image = try AnimatedImage(contentsOf: URL(fileURLWithPath: path))
        let view = AnimatedImageView()
        let player = AnimationPlayer(image: image, display: view)
        #expect(player.clock === TimerClock.shared)  // the default clock is the shared one
        player.play()
        #expect(player.isAnimating)
        // Wait (suspended, so that the hops can run) until frame 2 was shown.
        #expect(await waitFor { view.shownFrames.contains(2) })
        player.pause()
        #expect(!player.isAnimating)
        // Pause drops nothing: frames produced before it still arrive, then no more.
        #expect(
            await waitFor {
                let d = player.diagnostics
                return view.shownFrames.count + d.framesSkippedByDisplay == d.framesShown
            })
        let shown = view.shownFrames, diagnostics = player.diagnostics
        #expect(
            DisplayOrder.violations(
                shown: shown, frameCount: 3, produced: diagnostics.framesShown,
                skipped: diagnostics.framesSkippedByDisplay) == [], "\(shown)")
        #expect(diagnostics.skippedFrames == 0)  // the player itself skips none (it holds when late)
        #expect(player.displayHopCount > 0)  // ticks on the clock's thread hopped to the main actor
        let last = try #require(shown.last)
        #expect(view.image?.pixel(x: 1, y: 1) == CodecsFixture.color(ofFrame: last))
        // Paused: nothing more arrives, even after every queued hop has run.
        try await Task.sleep(for: .milliseconds(300))
        #expect(view.shownFrames == shown)
    }

    /// The same while spinning threads occupy every core.
    @MainActor @Test func theSampleViewGetsItsFramesInOrderWhileEveryCoreIsBusy() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(CodecsFixture.gif(delays: [10, 20, 10]), to: "sample.gif").path
        let busy = BusyThreads()
        defer { busy.stop() }
        try await Self.playTheSample(path: path)
    }

    /// `demo(path:)` itself, as written, runs to the end on the main actor (it prints the
    /// frames shown, the frames, the timeline and the error; Scripts/run-examples.sh checks
    /// those lines from the AppViewSample executable).
    @MainActor @Test func theSampleRunsAsWritten() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(CodecsFixture.gif(delays: [10, 20, 10]), to: "sample.gif").path
        try await demo(path: path)
    }

    @MainActor @Test func theSampleLoadsIteratesTimesAndExplains() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(CodecsFixture.gif(delays: [10, 20, 10]), to: "sample.gif").path

        CoderRegistry.shared.registerBuiltInCoders()  // one call, safe to repeat
        let image = try AnimatedImage(contentsOf: URL(fileURLWithPath: path))

        var printed: [String] = []
        for try await frame in image.frames() {  // every frame in order, decoded lazily, bounded memory
            printed.append("\(frame.index) \(frame.duration) \(frame.pixels.size.width)x\(frame.pixels.size.height)")
        }
        #expect(printed == ["0 100 ms 2x2", "1 200 ms 2x2", "2 100 ms 2x2"])
        let timeline = image.info.uniformTimeline()  // GCD of the display durations
        #expect(timeline.interval == .milliseconds(100) && timeline.frames == [0, 1, 1, 2])

        var configuration = PlayerConfiguration()
        configuration.delayPolicy = .imageIO  // < 11 ms -> 100 ms, as ImageIO players do
        #expect(configuration.delayPolicy.displayDuration(for: .milliseconds(5)) == .milliseconds(100))

        do {
            _ = try AnimatedImage(data: Data("not an image".utf8))
            Issue.record("text decoded as an image")
        } catch {
            #expect(
                error.localizedDescription
                    == "unrecognized image format (no registered coder matches the content; first bytes: 6e 6f 74 20 61 6e 20 69)")
        }
    }
}
