import Testing
import ZoetropeTesting

@testable import Zoetrope

/// The player over a source still arriving: the frames that have arrived play in order,
/// it stalls at the download edge, never loops or finishes before the file is complete,
/// and plays exactly as a whole-file player once it is.
@Suite("Playing a source that is still arriving")
struct PlaybackGrowingSourceTests {
    /// A player of `source` on a manual clock with simulated decoding.
    struct Rig {
        let clock = ManualClock()
        let executor: SimulatedDecodeExecutor
        let display = RecordingDisplay()
        let player: AnimationPlayer
        let session: GrowingSyntheticSource
        let attachment: ClockSubscription
        let events: EventLog

        init(
            frames: Int, loopCount: LoopCount = .infinite, configuration: PlayerConfiguration = PlayerConfiguration(),
            arrived: Int = 0
        ) throws {
            session = GrowingSyntheticSource(
                SyntheticFrameSource(
                    frameCount: frames, duration: .milliseconds(100),
                    loopCount: loopCount))
            if arrived > 0 { try session.append([UInt8](repeating: 0, count: arrived)) }
            executor = SimulatedDecodeExecutor(workerCount: 1, constantCost: .zero)
            var c = configuration
            c.executor = executor
            c.memoryPressure = nil
            attachment = executor.attach(to: clock)
            player = AnimationPlayer(incrementalSource: session, clock: clock, display: display, configuration: c)
            events = EventLog(player)
        }

        /// Ticks at 1 kHz from `start` up to (not including) `end`, in ms.
        func run(from start: Int, to end: Int) {
            for ms in start..<end { clock.tick(atNanoseconds: Int64(ms) * 1_000_000) }
        }

        /// When each frame was first shown, in ms, from the display's record.
        var shownOrder: [Int] { display.indexes }
    }

    @Test("frames play in order up to the edge, stall there, and go on when bytes arrive; no loop before the end")
    func stallsAtTheEdgeAndResumes() throws {
        let rig = try Rig(frames: 6, arrived: 3)
        rig.player.play()
        rig.run(from: 0, to: 1000)
        #expect(rig.shownOrder == [0, 1, 2])
        #expect(rig.player.state == .playing)
        #expect(rig.events.all.contains(.stalled(waitingFor: 3)))
        #expect(!rig.events.all.contains { if case .loopCompleted = $0 { true } else { false } })
        #expect(rig.player.info.frameCount == 3)

        try rig.session.append([0, 0, 0])
        var shownAt: [Int: Int] = [:]
        for ms in 1000..<1400 {
            rig.clock.tick(atNanoseconds: Int64(ms) * 1_000_000)
            if let i = rig.player.currentFrameIndex, shownAt[i] == nil { shownAt[i] = ms }
        }
        // The frame that arrived gets its whole duration from when it shows; still no loop.
        #expect(rig.shownOrder == [0, 1, 2, 3, 4, 5])
        let three = try #require(shownAt[3])
        #expect(three <= 1001)
        #expect(shownAt[4] == three + 100)
        #expect(shownAt[5] == three + 200)
        #expect(rig.player.currentFrameIndex == 5)

        // Complete: the animation loops as the whole file does.
        try rig.session.finish()
        rig.run(from: 1400, to: 1700)
        #expect(Array(rig.shownOrder.prefix(7)) == [0, 1, 2, 3, 4, 5, 0])
        #expect(rig.events.all.contains(.loopCompleted(plays: 1)))
        #expect(rig.player.info.frameCount == 6)
    }

    @Test("catch-up does not skip frames that arrive after a stall at the edge")
    func catchUpDoesNotSkipArrivals() throws {
        let rig = try Rig(
            frames: 8, configuration: PlayerConfiguration(bufferPolicy: .ahead(4), latePolicy: .catchUp),
            arrived: 2)
        rig.player.play()
        rig.run(from: 0, to: 2000)
        try rig.session.append([0, 0, 0, 0, 0, 0])
        rig.run(from: 2000, to: 2700)
        #expect(rig.shownOrder == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(rig.player.diagnostics.skippedFrames == 0)
    }

    @Test("a one-play animation finishes only once the file is complete")
    func finishesOnlyWhenComplete() throws {
        let rig = try Rig(frames: 3, loopCount: .once, arrived: 3)
        rig.player.play()
        rig.run(from: 0, to: 600)
        // All three frames are in, but more could come: no finish yet.
        #expect(rig.player.state == .playing)
        #expect(!rig.events.all.contains(.finished))
        try rig.session.finish()
        rig.run(from: 600, to: 610)
        #expect(rig.player.state == .finished)
        #expect(rig.shownOrder == [0, 1, 2])
        #expect(rig.events.all.contains(.finished))
    }

    @Test("a single frame known while more may come is not a still image")
    func singleFrameWaits() throws {
        let rig = try Rig(frames: 2, loopCount: .once, arrived: 1)
        rig.player.play()
        rig.run(from: 0, to: 300)
        #expect(rig.player.state == .playing)
        try rig.session.append([0])
        try rig.session.finish()
        rig.run(from: 300, to: 500)
        #expect(rig.shownOrder == [0, 1])
        #expect(rig.player.state == .finished)
    }

    @Test("playing before any frame has arrived waits for frame 0")
    func playBeforeTheFirstFrame() throws {
        let rig = try Rig(frames: 3)
        #expect(rig.player.info.frameCount == 0)
        #expect(rig.player.info.canvasSize == PixelSize(width: 0, height: 0))
        rig.player.play()
        #expect(rig.player.state == .playing)
        rig.run(from: 0, to: 50)
        #expect(rig.shownOrder.isEmpty)
        #expect(rig.events.all.contains(.stalled(waitingFor: 0)))
        try rig.session.append([0])
        rig.run(from: 50, to: 60)
        #expect(rig.shownOrder == [0])
        #expect(rig.player.info.canvasSize == PixelSize(width: 4, height: 2))
    }

    @Test("an idle player shows its poster once frame 0 arrives and it is told")
    func posterAfterArrival() throws {
        let rig = try Rig(frames: 3)
        rig.player.prepare()
        rig.run(from: 0, to: 10)
        #expect(rig.shownOrder.isEmpty)
        try rig.session.append([0])
        rig.player.sourceDidChange()
        rig.run(from: 10, to: 20)
        #expect(rig.shownOrder == [0])
        #expect(rig.player.poster != nil)
        #expect(rig.player.state == .idle)
    }

    @Test("withdrawn frames: the player starts over on the new ones, still playing")
    func withdrawnFramesStartOver() throws {
        let rig = try Rig(frames: 5, arrived: 3)
        rig.player.play()
        rig.run(from: 0, to: 250)
        #expect(rig.shownOrder == [0, 1, 2])
        rig.session.withdraw(keeping: 1)
        rig.run(from: 250, to: 300)
        #expect(rig.player.state == .playing)
        let last = try #require(rig.display.shown.last)
        // Frame 0 of the new revision: drawn with the other tag.
        #expect(last.index == 0)
        #expect(rig.player.info.frameCount == 1)
        try rig.session.finish()
        rig.run(from: 300, to: 320)
        #expect(rig.player.state == .finished)
    }

    @Test("a session that fails stops playback with the error, naming the frame that did not arrive")
    func failureStops() throws {
        let rig = try Rig(frames: 5, arrived: 2)
        rig.player.play()
        rig.run(from: 0, to: 300)
        let error = AnimatedImageError.limitExceeded(format: rig.player.info.format, limit: .frameCount, requested: 3, allowed: 2)
        rig.session.fail(error)
        rig.run(from: 300, to: 310)
        #expect(rig.player.state == .failed)
        #expect(rig.events.all.contains(.decodeFailed(index: 2, error: error)))
        #expect(rig.player.currentFrameIndex == 1)
    }

    @Test("keep-all keeps every frame of a source that grew, one decode per frame")
    func keepAllOverAGrowingSource() throws {
        let rig = try Rig(frames: 6, configuration: PlayerConfiguration(bufferPolicy: .keepAll), arrived: 2)
        rig.player.play()
        rig.run(from: 0, to: 400)
        try rig.session.append([0, 0, 0, 0])
        try rig.session.finish()
        rig.run(from: 400, to: 2000)
        #expect(rig.player.diagnostics.framesDecoded == 6)
        #expect(rig.shownOrder.prefix(8) == [0, 1, 2, 3, 4, 5, 0, 1])
    }

    @Test("a first frame still arriving shows, and shows again as more of it arrives")
    func partialFirstFrame() throws {
        let rig = try Rig(frames: 3)
        rig.player.play()
        rig.session.arrivePartOfFrameZero(bytes: 10)
        rig.run(from: 0, to: 50)
        #expect(rig.shownOrder == [0])
        rig.session.arrivePartOfFrameZero(bytes: 10)
        rig.run(from: 50, to: 100)
        rig.session.arrivePartOfFrameZero(bytes: 10)
        rig.run(from: 100, to: 150)
        // Each time more of it came, frame 0 was drawn and shown again; time stood still.
        #expect(rig.shownOrder == [0, 0, 0])
        #expect(rig.player.diagnostics.framesDecoded == 3)
        try rig.session.append([0, 0])
        rig.run(from: 150, to: 400)
        #expect(rig.shownOrder == [0, 0, 0, 0, 1])
        #expect(!rig.events.all.contains { if case .loopCompleted = $0 { true } else { false } })
    }

    @Test("a reversed order waits for the whole file, then starts from its last frame")
    func reverseWaitsForTheEnd() throws {
        var config = PlayerConfiguration()
        config.playbackMode = .reverse
        let rig = try Rig(frames: 4, configuration: config, arrived: 2)
        rig.player.play()
        rig.run(from: 0, to: 300)
        #expect(rig.shownOrder.isEmpty)
        try rig.session.append([0, 0])
        try rig.session.finish()
        rig.run(from: 300, to: 650)
        #expect(Array(rig.shownOrder.prefix(4)) == [3, 2, 1, 0])
    }
}
