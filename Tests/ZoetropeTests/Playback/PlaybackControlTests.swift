import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("Player control, visibility, loops and environment")
struct PlaybackControlTests {
    @Test("pause keeps the frame and does not count the paused time")
    func pauseResume() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10))
        h.player.play()
        h.run(until: ns(1.01))  // last tick 1.0 s: frame 20 mod 10 = 0, 0 ms in
        h.player.pause()
        #expect(h.player.state == .paused)
        let before = h.player.currentFrameIndex
        h.run(from: ns(1.01), until: ns(4))
        #expect(h.player.currentFrameIndex == before)
        h.player.play()
        // Resumed at the 4 s tick as if no time had passed since 1.0 s.
        h.run(from: ns(4), until: ns(6)) { t, p in
            let played = t - ns(4) + ns(1.0)
            #expect(p.currentFrameIndex == Int((played / 50_000_000) % 10), "t=\(t)")
        }
    }

    @Test("hidden time is not counted, nothing new is decoded while hidden, and it resumes on the frame it left")
    func visibility() {
        let source = SyntheticFrameSource(frameCount: 10)
        let h = PlaybackHarness(source: source)
        h.player.play()
        h.run(until: ns(1.01))
        let left = h.player.currentFrameIndex
        h.display.setVisible(false)
        let decodedBefore = h.executor.jobsRun
        h.run(from: ns(1.01), until: ns(3))
        #expect(h.player.currentFrameIndex == left)
        #expect(h.executor.jobsRun <= decodedBefore + 1)  // an in-flight decode may finish
        h.display.setVisible(true)
        h.run(from: ns(3), until: ns(5)) { t, p in
            // The first visible tick (3.0 s) continues from 1.0 s.
            let played = t - ns(3) + ns(1.0)
            #expect(p.currentFrameIndex == Int((played / 50_000_000) % 10), "t=\(t)")
        }
    }

    @Test("seek shows the frame when decoded and continues from it")
    func seek() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 30), cost: { _ in .milliseconds(20) })
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(1))
        h.player.seek(toFrame: 25)
        var shownAt: Int64?
        h.run(.fixed(hertz: 100), from: ns(1), until: ns(1.5)) { t, p in
            if shownAt == nil, p.currentFrameIndex == 25 { shownAt = t }
        }
        // The decode in flight (≤ 20 ms) finishes, then frame 25 takes 20 ms.
        #expect(shownAt != nil && shownAt! <= ns(1.05))
        let shown = h.display.shown.map(\.index)
        let i = shown.firstIndex(of: 25)!
        #expect(shown[i + 1] == 26)
        for s in h.display.shown { #expect(s.pixelIndex == s.index) }
    }

    @Test("seek while paused shows the frame without playing")
    func seekPaused() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 30))
        h.player.play()
        h.run(until: ns(0.5))
        h.player.pause()
        h.player.seek(toFrame: 3)
        h.executor.advance(toNanoseconds: ns(0.6))
        #expect(h.player.currentFrameIndex == 3)
        #expect(h.display.shown.last?.index == 3)
        #expect(h.player.state == .paused)
    }

    @Test("the file's loop count: plays twice, rests on the last frame, events in order")
    func finiteLoops() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 5, loopCount: .plays(2)))
        let log = EventLog(h.player)
        h.player.play()
        h.run(until: ns(2))
        #expect(h.player.state == .finished)
        #expect(h.player.currentFrameIndex == 4)
        #expect(h.player.playsCompleted == 2)
        #expect(log.all == [.loopCompleted(plays: 1), .loopCompleted(plays: 2), .finished])
        // Ten frames shown: two plays of five.
        #expect(h.display.indexes == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        #expect(h.clock.subscriberCount == 0)
    }

    @Test("an overridden loop count wins over the file's")
    func overriddenLoops() {
        let once = PlaybackHarness(
            source: SyntheticFrameSource(frameCount: 5, loopCount: .infinite),
            configuration: PlayerConfiguration(loopCount: .once))
        once.player.play()
        once.run(until: ns(2))
        #expect(once.player.state == .finished)
        #expect(once.display.indexes == [0, 1, 2, 3, 4])

        let forever = PlaybackHarness(
            source: SyntheticFrameSource(frameCount: 5, loopCount: .plays(1)),
            configuration: PlayerConfiguration(loopCount: .infinite))
        forever.player.play()
        forever.run(until: ns(2))
        #expect(forever.player.state == .playing)
        #expect(forever.player.playsCompleted == 7)  // 40 frames shown at 1.95 s: 8th play under way
    }

    @Test("play after finishing starts over")
    func replay() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 3, loopCount: .once))
        h.player.play()
        h.run(until: ns(1))
        #expect(h.player.state == .finished)
        h.player.play()
        h.run(from: ns(1), until: ns(1.2))
        #expect(h.display.indexes == [0, 1, 2, 0, 1, 2])
    }

    @Test("reduce motion and auto-play off show the poster; low power can show the poster")
    func environment() {
        for env in [PlaybackEnvironment(reduceMotion: true), PlaybackEnvironment(lowPower: true, lowPowerBehavior: .poster)] {
            let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10), configuration: PlayerConfiguration(environment: env))
            h.player.play()
            h.run(until: ns(2))
            #expect(h.player.state == .showingPoster)
            #expect(h.display.indexes == [0])
            #expect(h.display.shown.first?.pixelIndex == 0)
        }
        let off = PlaybackHarness(
            source: SyntheticFrameSource(frameCount: 10),
            configuration: PlayerConfiguration(environment: PlaybackEnvironment(autoPlay: false)))
        off.player.autoPlay()
        off.run(until: ns(1))
        #expect(off.display.indexes == [0])
        off.player.play()  // an explicit play still plays
        off.run(from: ns(1), until: ns(2))
        #expect(off.display.indexes.count > 10)
    }

    @Test("low power throttling updates at most 10 times a second, showing every frame in order")
    func lowPowerThrottle() {
        let env = PlaybackEnvironment(lowPower: true, lowPowerBehavior: .throttle(maxFramesPerSecond: 10))
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10), configuration: PlayerConfiguration(environment: env))
        h.player.play()
        h.run(until: ns(2))
        let shown = h.display.indexes
        #expect(shown.count <= 21)
        for (a, b) in zip(shown, shown.dropFirst()) { #expect(b == (a + 1) % 10) }
    }

    @Test("setEnvironment on a playing player applies at once: reduce motion, low power, and back")
    func environmentAppliesAtOnce() {
        for env in [PlaybackEnvironment(reduceMotion: true), PlaybackEnvironment(lowPower: true, lowPowerBehavior: .poster)] {
            let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10, duration: .milliseconds(100)))
            h.player.play()
            h.run(until: ns(0.55))
            let played = h.display.indexes
            #expect(played.count > 3 && played.last != 0)
            h.player.setEnvironment(env)
            // At once, before another tick: poster state, and the player left the clock.
            #expect(h.player.state == .showingPoster)
            #expect(h.clock.subscriberCount == 0)
            h.run(from: ns(0.55), until: ns(2))
            #expect(h.display.indexes == played + [0])  // the poster, then nothing
            // Allowed again: a new play from the first frame, at once.
            h.player.setEnvironment(.standard)
            #expect(h.player.state == .playing)
            h.run(from: ns(2), until: ns(2.25))
            #expect(Array(h.display.indexes.dropFirst(played.count + 1)).starts(with: [0, 1]), "\(h.display.indexes)")
        }
    }

    @Test("setEnvironment with auto-play off holds a player autoPlay() started, not one play() started")
    func autoPlayOffAppliesAtOnce() {
        let auto = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10, duration: .milliseconds(100)))
        auto.player.autoPlay()
        auto.run(until: ns(0.35))
        let played = auto.display.indexes
        #expect(played.count > 2 && played.last != 0)
        auto.player.setEnvironment(PlaybackEnvironment(autoPlay: false))
        #expect(auto.player.state == .showingPoster)
        auto.run(from: ns(0.35), until: ns(1))
        #expect(auto.display.indexes == played + [0])
        auto.player.setEnvironment(PlaybackEnvironment(autoPlay: true))
        #expect(auto.player.state == .playing)

        let explicit = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10, duration: .milliseconds(100)))
        explicit.player.play()
        explicit.run(until: ns(0.35))
        let before = explicit.display.indexes
        explicit.player.setEnvironment(PlaybackEnvironment(autoPlay: false))
        #expect(explicit.player.state == .playing)  // asked for by play(): it plays on
        explicit.run(from: ns(0.35), until: ns(0.75))
        #expect(explicit.display.indexes.count > before.count + 2)
        #expect(!explicit.display.indexes.dropFirst(before.count).contains(0))
    }

    @Test("setEnvironment with a low-power throttle changes the tick interval of a playing player at once")
    func throttleAppliesAtOnce() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10, duration: .milliseconds(20)))
        h.player.play()
        h.run(until: ns(0.2))
        #expect(h.clock.preferredTickInterval == .milliseconds(20))
        h.player.setEnvironment(PlaybackEnvironment(lowPower: true, lowPowerBehavior: .throttle(maxFramesPerSecond: 10)))
        #expect(h.player.state == .playing)
        #expect(h.clock.preferredTickInterval == .milliseconds(100))
        let before = h.display.indexes.count
        h.run(from: ns(0.2), until: ns(1.2))
        let shown = h.display.indexes
        #expect(shown.count - before <= 11)  // at most 10 updates a second
        for (a, b) in zip(shown, shown.dropFirst()) { #expect(b == (a + 1) % 10) }
        // A paused player keeps the environment for its next play().
        h.player.pause()
        h.player.setEnvironment(PlaybackEnvironment(reduceMotion: true))
        #expect(h.player.state == .paused)
        h.player.play()
        #expect(h.player.state == .showingPoster)
    }

    @Test("stop goes back to the poster and frees the other frames; prepareForReuse frees everything")
    func stopAndReuse() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10), configuration: PlayerConfiguration(bufferPolicy: .keepAll))
        h.player.play()
        h.run(until: ns(1.03))
        h.player.stop()
        #expect(h.player.state == .stopped)
        #expect(h.player.currentFrameIndex == 0)
        #expect(h.display.shown.last?.index == 0)
        #expect(h.player.diagnostics.framesHeld <= 2)  // poster, and at most the frame that was on screen
        h.player.prepareForReuse()
        #expect(h.player.diagnostics.bytesHeld == 0)
        #expect(h.player.state == .idle)
        #expect(h.clock.subscriberCount == 0)
        // Reusable with another image.
        h.player.load(SyntheticFrameSource(frameCount: 4, duration: .milliseconds(100)))
        h.player.play()
        h.run(from: ns(2), until: ns(2.45))
        #expect(h.player.currentFrameIndex == 0)
        #expect(h.player.info.frameCount == 4)
    }

    @Test("a decode failure pauses on the frame already shown and says which frame")
    func decodeFailure() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10, failing: [3]))
        let log = EventLog(h.player)
        h.player.play()
        h.run(until: ns(1))
        #expect(h.player.state == .failed)
        #expect(h.player.currentFrameIndex == 2)
        let failures = log.all.filter { if case .decodeFailed = $0 { true } else { false } }
        #expect(failures.count == 1)
        if case .decodeFailed(let index, let error) = failures.first {
            #expect(index == 3)
            #expect(error == .invalidData(format: h.source.info.format, reason: "frame 3 is broken"))
        }
    }

    @Test("a stall is reported once per episode")
    func stallEvents() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10), cost: { $0 == 4 ? .milliseconds(200) : .zero })
        let log = EventLog(h.player)
        h.player.play()
        h.run(until: ns(0.6))
        #expect(log.all == [.stalled(waitingFor: 4)])
    }
}
