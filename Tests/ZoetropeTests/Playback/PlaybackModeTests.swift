import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("Playback modes: forward, reverse, bounce, reverse bounce")
struct PlaybackModeTests {
    private func harness(
        _ mode: PlaybackMode, frames: Int = 4, loops: LoopCount = .plays(2),
        policy: any FrameBufferPolicy = .oneAhead
    ) -> (PlaybackHarness, SyntheticFrameSource) {
        let source = SyntheticFrameSource(frameCount: frames, loopCount: loops)
        var c = PlayerConfiguration(bufferPolicy: policy)
        c.playbackMode = mode
        return (PlaybackHarness(source: source, configuration: c), source)
    }

    @Test(
        "two plays of 4 frames: the order of each mode, turning frames once, a bounce is one play",
        arguments: [
            (PlaybackMode.forward, [0, 1, 2, 3, 0, 1, 2, 3], 3),
            (.reverse, [3, 2, 1, 0, 3, 2, 1, 0], 0),
            (.bounce, [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0], 0),
            (.reverseBounce, [3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3], 3),
        ])
    func order(mode: PlaybackMode, expected: [Int], restsOn: Int) {
        let (h, _) = harness(mode)
        let log = EventLog(h.player)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(2))
        #expect(h.display.indexes == expected)
        for s in h.display.shown { #expect(s.pixelIndex == s.index) }
        #expect(log.all == [.loopCompleted(plays: 1), .loopCompleted(plays: 2), .finished])
        #expect(h.player.state == .finished)
        #expect(h.player.currentFrameIndex == restsOn)
        #expect(h.player.progress == 1)
    }

    @Test(
        "each frame shows for exactly its duration in every mode (the ideal schedule at every tick)",
        arguments: PlaybackMode.allCases, [(LatePolicy.stall, 1000), (.catchUp, 1000), (.catchUp, 13)])
    func exactTimings(mode: PlaybackMode, late: (policy: LatePolicy, hertz: Int)) {
        // At 13 Hz (77 ms ticks) catch-up skips frames to keep the schedule, across turns.
        // Durations 30, 50, 70, 90 ms, forever: the frame at t is the place the summed
        // durations of the play order reach, counted from the first frame's show.
        let ms: [Int64] = [30, 50, 70, 90]
        let source = SyntheticFrameSource(frameCount: 4, durations: ms.map { .milliseconds($0) })
        var c = PlayerConfiguration(bufferPolicy: .keepAll, latePolicy: late.policy)
        c.playbackMode = mode
        let h = PlaybackHarness(source: source, configuration: c)
        let order: [Int] =
            switch mode {
            case .forward: [0, 1, 2, 3]
            case .reverse: [3, 2, 1, 0]
            case .bounce: [0, 1, 2, 3, 2, 1]
            case .reverseBounce: [3, 2, 1, 0, 1, 2]
            }
        let cycle = order.reduce(0) { $0 + ms[$1] } * 1_000_000
        h.player.play()
        var start: Int64?
        var mismatches: [(Int64, Int?, Int)] = []
        h.run(.fixed(hertz: late.hertz), until: ns(3)) { t, p in
            guard let shown = p.currentFrameIndex else { return }
            if start == nil { start = t }
            var rest = (t - start!) % cycle
            var place = 0
            while rest >= ms[order[place]] * 1_000_000 {
                rest -= ms[order[place]] * 1_000_000
                place += 1
            }
            if shown != order[place] { mismatches.append((t, shown, order[place])) }
        }
        #expect(start == 0)
        #expect(mismatches.isEmpty, "first: \(String(describing: mismatches.first))")
        #expect(h.player.diagnostics.stalledTicks == 0)
        if late.hertz == 13 { #expect(h.player.diagnostics.skippedFrames > 0) }
        // Keep-all keeps every frame in every mode: each decoded once, over many turns.
        #expect(h.executor.jobsRun == 4)
    }

    @Test("reverse decodes ahead backwards: the poster, then n−1, n−2, …; never more than the window")
    func reverseDecodesBackwards() {
        let (h, source) = harness(.reverse, frames: 10, loops: .infinite, policy: .ahead(2))
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(0.6)) { _, p in
            // The poster plus the window of three.
            #expect(p.diagnostics.framesHeld <= 4)
        }
        #expect(Array(source.decodedFrames.prefix(8)) == [0, 9, 8, 7, 6, 5, 4, 3])
        #expect(h.display.indexes.prefix(10) == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    }

    @Test("bounce keeps the frame it turns on: 5 frames one-ahead decode 0,1,2,3,4,2,1 then 2,3,4,2,1 per bounce")
    func bounceDecodes() {
        let (h, source) = harness(.bounce, frames: 5, loops: .infinite)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(0.8)) { _, p in #expect(p.diagnostics.framesHeld <= 3) }
        #expect(Array(source.decodedFrames.prefix(12)) == [0, 1, 2, 3, 4, 2, 1, 2, 3, 4, 2, 1])
        #expect(Array(h.display.indexes.prefix(16)) == [0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1])
    }

    @Test("switching mode while playing keeps the frame shown and turns round")
    func switchMode() {
        let (h, _) = harness(.forward, frames: 6, loops: .infinite)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(0.16))  // 0, 1, 2, 3 shown (3 at 150 ms)
        h.player.setPlaybackMode(.reverse)
        #expect(h.player.playbackMode == .reverse)
        h.run(.fixed(hertz: 100), from: ns(0.16), until: ns(0.5))
        #expect(Array(h.display.indexes.prefix(8)) == [0, 1, 2, 3, 2, 1, 0, 5])
    }
}

@Suite("Replay, seek to a time, progress and the current frame")
struct PlaybackReplayAndSeekTests {
    @Test("after a finite animation finished, play() and seek(toFrame: 0) + play() both play every play again")
    func replayBothPaths() {
        func finishedPlayer() -> (PlaybackHarness, EventLog) {
            let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 3, loopCount: .plays(2)))
            let log = EventLog(h.player)
            h.player.play()
            h.run(.fixed(hertz: 100), until: ns(1))
            #expect(h.player.state == .finished)
            return (h, log)
        }
        let expected = [0, 1, 2, 0, 1, 2]
        let (a, logA) = finishedPlayer()
        a.player.play()
        a.run(.fixed(hertz: 100), from: ns(1), until: ns(2))
        let (b, logB) = finishedPlayer()
        b.player.seek(toFrame: 0)
        b.executor.advance(toNanoseconds: ns(1))
        b.player.play()
        b.run(.fixed(hertz: 100), from: ns(1), until: ns(2))
        #expect(Array(a.display.indexes.dropFirst(6)) == expected)
        #expect(Array(b.display.indexes.dropFirst(6)) == expected)
        let twice: [PlayerEvent] = [.loopCompleted(plays: 1), .loopCompleted(plays: 2), .finished]
        #expect(logA.all == twice + twice)
        #expect(logB.all == twice + twice)
        #expect(a.player.playsCompleted == 2 && b.player.playsCompleted == 2)
    }

    @Test("seek(to:) maps a time through the display durations in play order; progress and pixels follow")
    func seekToTime() throws {
        // Bounce over 100, 200, 300 ms: the play is frames 0, 1, 2, 1 = 800 ms.
        let source = SyntheticFrameSource(frameCount: 3, durations: [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        var c = PlayerConfiguration()
        c.playbackMode = .bounce
        let h = PlaybackHarness(source: source, configuration: c)
        #expect(h.player.progress == 0)
        #expect(h.player.currentFrame == nil)
        #expect(h.player.playDuration == .milliseconds(800))
        h.player.seek(to: .milliseconds(700))  // place 3 (frame 1, from 600 ms), 100 ms in
        h.executor.advance(toNanoseconds: ns(0.01))
        #expect(h.player.state == .paused)
        #expect(h.player.currentFrameIndex == 1)
        #expect(h.player.progress == 0.875)
        let pixels = try #require(h.player.currentFrame)
        #expect(SyntheticFrameSource.frameIndex(in: pixels) == 1)
        #expect(pixels.size == PixelSize(width: 4, height: 2))

        // Playing on: 100 ms more of frame 1, then the next play begins with frame 0.
        h.player.play()
        var changes: [(Int64, Int)] = []
        var last = h.player.currentFrameIndex
        h.run(.fixed(hertz: 100), from: ns(1), until: ns(1.5)) { t, p in
            if p.currentFrameIndex != last {
                last = p.currentFrameIndex
                changes.append((t, last!))
            }
        }
        #expect(changes.map(\.0) == [ns(1.1), ns(1.2), ns(1.4)])
        #expect(changes.map(\.1) == [0, 1, 2])
        #expect(h.player.playsCompleted == 1)

        // Halfway through frame 0 of the next play: 50 / 800.
        h.player.pause()
        h.player.seek(to: .milliseconds(50))
        h.executor.advance(toNanoseconds: ns(1.6))
        #expect(h.player.currentFrameIndex == 0)
        #expect(h.player.progress == 0.0625)
        // Past the end: clamped to the last place of the play.
        h.player.seek(to: .seconds(5))
        h.executor.advance(toNanoseconds: ns(1.7))
        #expect(h.player.currentFrameIndex == 1)
        #expect(h.player.progress == 1)
    }

    @Test("progress runs 0 to 1 through a forward play in display time")
    func progressForward() {
        let source = SyntheticFrameSource(frameCount: 4, duration: .milliseconds(100), loopCount: .plays(1))
        let h = PlaybackHarness(source: source)
        h.player.play()
        var seen: [Int64: Double] = [:]
        h.run(.fixed(hertz: 100), until: ns(0.5)) { t, p in
            if [ns(0), ns(0.05), ns(0.25), ns(0.39)].contains(t) { seen[t] = p.progress }
        }
        #expect(seen == [ns(0): 0, ns(0.05): 0.125, ns(0.25): 0.625, ns(0.39): 0.975])
        #expect(h.player.progress == 1)
    }

    @Test("low power shows the poster by default; throttling is still an option")
    func lowPowerDefaultsToPoster() {
        #expect(PlaybackEnvironment().lowPowerBehavior == .poster)
        let c = PlayerConfiguration(environment: PlaybackEnvironment(lowPower: true))
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 5), configuration: c)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(1))
        #expect(h.player.state == .showingPoster)
        #expect(h.display.indexes == [0])

        let throttled = PlayerConfiguration(
            environment: PlaybackEnvironment(
                lowPower: true,
                lowPowerBehavior: .throttle(maxFramesPerSecond: 10)))
        let t = PlaybackHarness(source: SyntheticFrameSource(frameCount: 5), configuration: throttled)
        t.player.play()
        t.run(.fixed(hertz: 100), until: ns(1))
        #expect(t.player.state == .playing)
        #expect(t.display.indexes.count > 1)
    }
}
