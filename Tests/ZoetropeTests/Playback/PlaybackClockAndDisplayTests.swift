import Foundation
import Testing
import ZoetropeTesting
import ZoetropeUI

@testable import Zoetrope

@Suite("Clocks, displays, the closure API and the worker pool")
struct PlaybackClockAndDisplayTests {
    @Test("refresh patterns give exact tick times")
    func refreshPatterns() {
        let p144 = RefreshPattern.fixed(hertz: 144)
        #expect(p144.nanoseconds(ofTick: 144) == 1_000_000_000)
        #expect(p144.nanoseconds(ofTick: 144 * 50_000) == 50_000 * 1_000_000_000)
        #expect(p144.nanoseconds(ofTick: 1) == 6_944_444)
        let v = RefreshPattern.variable
        #expect(v.rates.min() == 48 && v.rates.max() == 120)
        // One cycle: 1/120 + 1/100 + 1/90 + 1/72 + 1/60 + 1/48 + 1/60 + 1/72 + 1/90 + 1/100 s
        // = 477/3600 s, exactly, however many cycles.
        #expect(v.nanoseconds(ofTick: 10) == 132_500_000)
        #expect(v.nanoseconds(ofTick: 10_000) == 132_500_000_000)
        #expect(v.nanoseconds(ofTick: 1) == 8_333_333)
        for k in [0, 1, 7, 999, 12345] {
            #expect(v.tickCount(before: v.nanoseconds(ofTick: k)) == k)
            #expect(p144.tickCount(before: p144.nanoseconds(ofTick: k) + 1) == k + 1)
        }
    }

    @Test("the timer clock delivers increasing ticks on an exact grid")
    func timerClockFixed() {
        let clock = TimerClock(rate: .fixed(hertz: 100))
        let ticks = Locked<[FrameTick]>([])
        let s = clock.subscribe(preferredInterval: nil) { t in ticks.withLock { $0.append(t) } }
        #expect(eventually { ticks.withLock { $0.count } >= 10 })
        s.cancel()
        clock.invalidate()
        let got = ticks.withLock { $0 }
        for (a, b) in zip(got, got.dropFirst()) {
            #expect(b.targetNanoseconds > a.targetNanoseconds)
            #expect((b.targetNanoseconds - a.targetNanoseconds) % 10_000_000 == 0)
        }
    }

    @Test("a fitting timer clock ticks no faster than its subscribers need")
    func timerClockFitting() {
        let clock = TimerClock(rate: .fitting(maxHertz: 120))
        let ticks = Locked<[Int64]>([])
        let s = clock.subscribe(preferredInterval: .milliseconds(40)) { t in ticks.withLock { $0.append(t.targetNanoseconds) } }
        #expect(eventually { ticks.withLock { $0.count } >= 5 })
        s.cancel()
        clock.invalidate()
        let got = ticks.withLock { $0 }
        for (a, b) in zip(got, got.dropFirst()) { #expect(b - a >= 40_000_000) }
    }

    @Test("a player on the timer clock plays real frames in order")
    func playerOnTimerClock() { Self.playerOnTimerClockScenario() }

    /// The test above as a scenario, which the busy-machine test runs too.
    static func playerOnTimerClockScenario() {
        let clock = TimerClock()
        let display = RecordingDisplay()
        let source = SyntheticFrameSource(frameCount: 5, duration: .milliseconds(20))
        let player = AnimationPlayer(
            source: source, clock: clock, display: display,
            configuration: PlayerConfiguration(memoryPressure: nil))
        player.play()
        #expect(eventually { display.indexes.count >= 8 })
        player.stop()
        clock.invalidate()
        let shown = display.indexes.dropLast()  // the last is the poster after stop
        for (a, b) in zip(shown, shown.dropFirst()) { #expect(b == (a + 1) % 5) }
        for s in display.shown { #expect(s.pixelIndex == s.index) }
    }

    @Test("headless display: a still stops the animation; an animation replaces the still")
    func headless() {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor()
        let a = executor.attach(to: clock)
        let display = HeadlessDisplay()
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 10), clock: clock,
            configuration: PlayerConfiguration(executor: executor, memoryPressure: nil))
        display.setAnimation(player)
        clock.run(.fixed(hertz: 60), for: .milliseconds(120))
        #expect(display.currentFrameIndex == 2)
        #expect(player.state == .playing)

        var still = PixelBuffer(width: 1, height: 1)
        still.setPixel(x: 0, y: 0, [1, 2, 3, 4])
        display.setStill(still)
        #expect(player.state == .stopped)
        #expect(player.display == nil)
        #expect(clock.subscriberCount == 0)
        clock.tick(atNanoseconds: 500_000_000)
        #expect(display.currentFrame == still)
        #expect(display.currentFrameIndex == nil)

        display.setAnimation(player)
        clock.tick(atNanoseconds: 600_000_000)
        #expect(display.currentFrameIndex == 0)
        #expect(display.currentFrame.map(SyntheticFrameSource.frameIndex) == 0)
        if case .animation(let p) = display.content { #expect(p === player) } else { Issue.record("expected the animation") }
        _ = a
    }

    @Test("headless display with auto-play off shows the poster")
    func headlessNoAutoPlay() {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor()
        let a = executor.attach(to: clock)
        let display = HeadlessDisplay()
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 10), clock: clock,
            configuration: PlayerConfiguration(
                environment: PlaybackEnvironment(autoPlay: false),
                executor: executor, memoryPressure: nil))
        display.setAnimation(player)
        executor.advance(toNanoseconds: 0)
        #expect(player.state == .showingPoster)
        #expect(display.currentFrameIndex == 0)
        _ = a
    }

    @Test("playFrames hands every frame to the closure and stops from inside it")
    func closureAPI() {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor()
        let a = executor.attach(to: clock)
        let got = Locked<[Int]>([])
        let handle = AnimationPlayer.playFrames(
            of: SyntheticFrameSource(frameCount: 10), clock: clock,
            configuration: PlayerConfiguration(executor: executor, memoryPressure: nil)
        ) { f in
            #expect(SyntheticFrameSource.frameIndex(in: f.pixels) == f.index)
            got.withLock { $0.append(f.index) }
            if f.index == 6 { f.stop() }
        }
        clock.run(.fixed(hertz: 60), for: .seconds(2))
        #expect(got.withLock { $0 } == [0, 1, 2, 3, 4, 5, 6])
        #expect(handle.isStopped)
        #expect(handle.player.diagnostics.bytesHeld == 0)
        _ = a
    }

    @Test("playFrames on data goes through the registry, and fails with the registry's error")
    func closureAPIData() {
        #expect(throws: AnimatedImageError.self) {
            _ = try AnimationPlayer.playFrames(of: Data([1, 2, 3]), registry: CoderRegistry()) { _ in }
        }
    }

    @Test("64 players share a bounded worker pool and all of them get their frames")
    func workerPool() { Self.workerPoolScenario() }

    /// The test above as a scenario, which the busy-machine test runs too.
    static func workerPoolScenario() {
        let pool = DecodeWorkerPool(workerCount: 3)
        let clock = ManualClock()
        var players: [AnimationPlayer] = []
        for _ in 0..<64 {
            let p = AnimationPlayer(
                source: SyntheticFrameSource(frameCount: 4), clock: clock,
                configuration: PlayerConfiguration(executor: pool, memoryPressure: nil))
            p.prepare()
            players.append(p)
        }
        #expect(eventually { players.allSatisfy { $0.poster != nil } })
        // A job is counted once `run()` has returned, just after it handed its frame over.
        #expect(eventually { pool.jobsCompleted >= 64 })
        #expect(pool.threadsStarted <= 3)
        // Then they play: every player advances through real decodes on the pool.
        for p in players { p.play() }
        var t: Int64 = 0
        #expect(
            eventually {
                t += 50_000_000
                clock.tick(atNanoseconds: t)
                return players.allSatisfy { $0.diagnostics.framesShown >= 5 }
            })
        #expect(pool.threadsStarted <= 3)
    }

    @Test("the simulated executor runs jobs in finish-time order on its workers")
    func simulatedExecutor() {
        let ran = Locked<[Int]>([])
        let executor = SimulatedDecodeExecutor(workerCount: 2) { job in .milliseconds(Int64(job.frameIndex) * 10) }
        let source = SyntheticFrameSource(frameCount: 10)
        for i in [5, 1, 2] {
            executor.submit(DecodeJob(frameIndex: i, source: source, ownerID: 0) { ran.withLock { $0.append(i) } })
        }
        executor.advance(toNanoseconds: 10_000_000)
        #expect(ran.withLock { $0 } == [1])
        executor.advance(toNanoseconds: 30_000_000)  // 2 starts at 10 ms on the freed worker, ends at 30
        #expect(ran.withLock { $0 } == [1, 2])
        executor.advance(toNanoseconds: 50_000_000)
        #expect(ran.withLock { $0 } == [1, 2, 5])
        #expect(executor.pendingJobs == 0)
    }
}
