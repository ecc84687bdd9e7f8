import Foundation
import Testing
import ZoetropeTestSupport
import ZoetropeTesting

@testable import Zoetrope

@Suite("Players made from an AnimatedImage, the shared clock, main-actor displays")
struct PlaybackImageAndClockTests {
    private static func quiet(_ executor: any DecodeExecutor = DecodeWorkerPool.shared) -> PlayerConfiguration {
        PlayerConfiguration(executor: executor, memoryPressure: nil)
    }

    /// A player of `frames` 100 ms frames on a manual clock, decoded by a simulated executor
    /// attached to it, showing on a main-actor view (hidden when asked before the player sees it).
    @MainActor private static func mainActorRig(frames: Int, hidden: Bool = false)
        -> (ManualClock, MainActorRecordingView, AnimationPlayer, ClockSubscription)
    {
        let clock = ManualClock()
        let decoder = SimulatedDecodeExecutor()
        let attachment = decoder.attach(to: clock)
        let view = MainActorRecordingView()
        if hidden { view.isVisible = false }
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: frames, duration: .milliseconds(100)),
            clock: clock, display: view, configuration: quiet(decoder))
        return (clock, view, player, attachment)
    }

    @Test("twenty players on one timer clock: one thread, and no thread or tick while all are paused")
    func manyPlayersOneClockThread() throws {
        let clock = TimerClock()
        defer { clock.invalidate() }
        let displays = (0..<20).map { _ in RecordingDisplay() }
        let players = displays.map { d in
            AnimationPlayer(
                source: SyntheticFrameSource(frameCount: 3, duration: .milliseconds(20)), clock: clock,
                display: d, configuration: Self.quiet())
        }
        for p in players { p.play() }
        #expect(eventually { displays.allSatisfy { $0.indexes.contains(2) } })
        #expect(clock.threadsStarted == 1)
        #expect(clock.subscriberCount == 20)
        for p in players { p.pause() }
        #expect(clock.subscriberCount == 0)
        #expect(eventually { !clock.isThreadRunning })  // the thread ends once nobody subscribes
        let ticks = clock.ticksDelivered
        Thread.sleep(forTimeInterval: 0.3)
        #expect(clock.ticksDelivered == ticks)
        #expect(clock.threadsStarted == 1)
        players[0].play()  // a new stretch of ticking: one new thread
        #expect(eventually { clock.ticksDelivered > ticks })
        #expect(clock.threadsStarted == 2)
        players[0].pause()
    }

    @Test("players given no clock share TimerClock.shared")
    func defaultClockIsShared() throws {
        let coder = SyntheticCoder(durations: [.milliseconds(50), .milliseconds(50)])
        let image = try coder.image()
        let players =
            (0..<20).map { _ in AnimationPlayer(image: image) }
            + (0..<20).map { _ in AnimationPlayer(source: SyntheticFrameSource(frameCount: 2)) }
        #expect(players.allSatisfy { $0.clock === TimerClock.shared })
    }

    @Test("a host-driven clock reports the slowest tick that shows every frame on time")
    func hostDrivenClockPreferredRate() {
        let clock = ManualClock()
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 3, durations: [.milliseconds(100), .milliseconds(150), .milliseconds(100)]),
            clock: clock, configuration: Self.quiet(SimulatedDecodeExecutor()))
        #expect(clock.preferredTickInterval == nil)
        player.play()
        #expect(clock.preferredTickInterval == .milliseconds(50))  // GCD of 100 and 150 ms
        #expect(clock.preferredFramesPerSecond == 20)
        player.setRate(2)
        #expect(clock.preferredTickInterval == .milliseconds(25))
        player.pause()
        #expect(clock.preferredTickInterval == nil)
    }

    @Test("a player made from an image reuses its poster: frame 0 is decoded once, by the image")
    func posterReused() throws {
        let coder = SyntheticCoder(durations: [.milliseconds(100), .milliseconds(100), .milliseconds(100)])
        let image = try coder.image()
        #expect(coder.sessions.map(\.decodedFrames) == [[0]])
        let clock = ManualClock()
        let decoder = SimulatedDecodeExecutor()
        let attachment = decoder.attach(to: clock)
        defer { attachment.cancel() }
        let display = RecordingDisplay()
        let player = AnimationPlayer(image: image, display: display, clock: clock, configuration: Self.quiet(decoder))
        player.prepare()
        #expect(display.indexes == [0])  // shown at once: nothing to decode
        #expect(display.shown.first?.pixelIndex == 0)
        player.play()
        clock.run(.fixed(hertz: 100), for: .milliseconds(650))  // two plays and a bit
        #expect(display.indexes == [0, 0, 1, 2, 0, 1, 2, 0])  // play starts again from the poster
        player.stop()
        player.prepareForReuse()
        player.prepare()
        #expect(display.indexes == [0, 0, 1, 2, 0, 1, 2, 0, 0, 0])
        let decoded = coder.sessions.flatMap(\.decodedFrames)
        #expect(decoded.filter { $0 == 0 }.count == 1)  // the image's poster decode, and no other
        #expect(decoded.filter { $0 != 0 } == [1, 2, 1, 2, 1])  // the last: one ahead of the final frame 0
    }

    @Test("prepare() decodes the poster and shows it, without playing")
    func prepareShowsPoster() {
        let display = RecordingDisplay()
        let source = SyntheticFrameSource(frameCount: 3)
        let player = AnimationPlayer(source: source, clock: ManualClock(), display: display, configuration: Self.quiet())
        #expect(!player.isAnimating)
        player.prepare()
        #expect(eventually { display.indexes == [0] })
        #expect(display.shown.first?.pixelIndex == 0)
        #expect(player.state == .idle && player.currentFrameIndex == 0 && !player.isAnimating)
        #expect(source.decodedFrames == [0])
    }

    @MainActor @Test("a clock ticked on the main actor shows frames on a main-actor view directly, in order")
    func mainActorClockNeedsNoHop() {
        let (clock, view, player, attachment) = Self.mainActorRig(frames: 3)
        defer { attachment.cancel() }
        player.play()
        clock.run(.fixed(hertz: 60), for: .milliseconds(1000))
        #expect(view.shown == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
        #expect(view.onMainThread.allSatisfy { $0 })
        #expect(player.displayHopCount == 0)
        #expect(player.isAnimating)
        player.pause()
        #expect(!player.isAnimating)
    }

    @MainActor @Test("frames from the timer clock's thread reach a main-actor view in order, on the main thread")
    func timerClockHopsInOrder() async throws {
        try await Self.timerClockHopsInOrderScenario()
    }

    /// Frames produced on a timer clock's thread reach a main-actor view on the main
    /// thread, in play order except for the documented skips of a main actor more than 8
    /// frames behind, which the player counts. (The busy-machine test runs it too.)
    @MainActor static func timerClockHopsInOrderScenario() async throws {
        let clock = TimerClock()
        defer { clock.invalidate() }
        let view = MainActorRecordingView()
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 4, duration: .milliseconds(20)),
            clock: clock, display: view, configuration: Self.quiet())
        player.play()
        #expect(await waitFor { view.shown.count >= 12 })
        player.pause()
        // Pause drops nothing: what was produced before it still arrives.
        #expect(
            await waitFor {
                let d = player.diagnostics
                return view.shown.count + d.framesSkippedByDisplay == d.framesShown
            })
        let shown = view.shown, d = player.diagnostics
        #expect(
            DisplayOrder.violations(
                shown: shown, frameCount: 4, produced: d.framesShown,
                skipped: d.framesSkippedByDisplay) == [], "\(shown)")
        #expect(view.onMainThread.allSatisfy { $0 })
        #expect(player.displayHopCount > 0)
    }

    @MainActor @Test("stop() on the main actor drops frames still on their way: no stale frame after it")
    func stopDropsQueuedFrames() async throws { try await Self.stopDropsQueuedFramesScenario() }

    /// The test above as a scenario, which the busy-machine test runs too.
    @MainActor static func stopDropsQueuedFramesScenario() async throws {
        let (clock, view, player, attachment) = Self.mainActorRig(frames: 3)
        defer { attachment.cancel() }
        player.play()
        // Tick from another thread while the main actor is busy here: the frames queue for a hop.
        _ = DispatchQueue.global().sync { clock.run(.fixed(hertz: 60), for: .milliseconds(450)) }
        #expect(view.shown.isEmpty)
        player.stop()  // on the main actor
        #expect(view.shown == [0])  // the poster, directly; frames 0–1 dropped
        for _ in 0..<10 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(100))  // the queued hop runs and finds nothing
        #expect(view.shown == [0])
        #expect(player.state == .stopped)
    }

    @MainActor @Test("a hidden main-actor view holds the animation; shown again, it moves on")
    func mainActorVisibility() {
        let (clock, view, player, attachment) = Self.mainActorRig(frames: 3, hidden: true)
        defer { attachment.cancel() }
        player.play()
        clock.run(.fixed(hertz: 60), for: .milliseconds(1000))
        #expect(view.shown.allSatisfy { $0 == 0 })
        view.isVisible = true
        for k in 60..<120 { clock.tick(atNanoseconds: RefreshPattern.fixed(hertz: 60).nanoseconds(ofTick: k)) }
        #expect(view.shown.contains(2))
        let moving = view.shown.drop { $0 == 0 }
        for (a, b) in zip(moving, moving.dropFirst()) { #expect(b == (a + 1) % 3) }
    }

    @MainActor @Test("a blocked main actor gets the newest 8 frames in order, not an unbounded queue")
    func blockedMainActorQueueIsBounded() async throws { try await Self.blockedMainActorQueueIsBoundedScenario() }

    /// The test above as a scenario, which the busy-machine test runs too.
    @MainActor static func blockedMainActorQueueIsBoundedScenario() async throws {
        let (clock, view, player, attachment) = Self.mainActorRig(frames: 5)
        defer { attachment.cancel() }
        player.play()
        // 2 s of 100 ms frames produced off the main actor while it is blocked here: 20 shows.
        _ = DispatchQueue.global().sync { clock.run(.fixed(hertz: 100), for: .milliseconds(2000)) }
        #expect(view.shown.isEmpty)
        #expect(await waitFor { !view.shown.isEmpty })  // one hand-over brings all that waits
        #expect(view.shown == [2, 3, 4, 0, 1, 2, 3, 4])  // frames 12–19 of the 20
        #expect(player.diagnostics.framesShown == 20 && player.diagnostics.framesSkippedByDisplay == 12)
        player.pause()
    }
}
