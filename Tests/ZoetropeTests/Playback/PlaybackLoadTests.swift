import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("Loading another image into a player")
struct PlaybackLoadTests {
    @Test("load keeps a delay policy set with setDelayPolicy")
    func loadKeepsTheDelayPolicy() {
        // 10 ms frames: the default policy shows them for 100 ms, `.exact` for 10 ms.
        let frames = { SyntheticFrameSource(frameCount: 4, duration: .milliseconds(10)) }
        let h = PlaybackHarness(source: frames())
        h.player.setDelayPolicy(.exact)
        h.player.load(frames())
        #expect(h.player.state == .idle)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(0.095))

        let reference = PlaybackHarness(source: frames(), configuration: PlayerConfiguration(delayPolicy: .exact))
        reference.player.play()
        reference.run(.fixed(hertz: 100), until: ns(0.095))
        #expect(Set(reference.display.indexes) == [0, 1, 2, 3])
        #expect(h.display.indexes == reference.display.indexes)
    }

    @Test("load does not share the new image under the old image's cache key")
    func loadDropsTheOldSharedKey() {
        let cache = SharedFrameCache()
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .milliseconds(5))
        let attachment = executor.attach(to: clock)
        let config = PlayerConfiguration(bufferPolicy: .shared(cache, imageKey: "a.gif"), executor: executor, memoryPressure: nil)
        let other = AnimationPlayer(source: SyntheticFrameSource(frameCount: 10), clock: clock, configuration: config)
        let player = AnimationPlayer(source: SyntheticFrameSource(frameCount: 10), clock: clock, configuration: config)
        // Same size and frame count as a.gif, so the old key would hand out a.gif's frames.
        let b = SyntheticFrameSource(frameCount: 10)
        player.load(b)
        // The key is dropped: the new image is shared under its own identity, not a.gif's.
        #expect((player.bufferPolicy as? SharedBufferPolicy)?.imageKey == nil)
        other.play()
        player.play()
        clock.run(.fixed(hertz: 60), for: .seconds(1))
        #expect(player.diagnostics.framesFromSharedCache == 0)
        #expect(Set(b.decodedFrames) == Set(0..<10))
        #expect(other.diagnostics.framesFromSharedCache == 0)

        // With a key, the new image is shared under that key.
        player.stop()
        let third = AnimationPlayer(source: SyntheticFrameSource(frameCount: 10), clock: clock, configuration: config)
        other.load(SyntheticFrameSource(frameCount: 10), sharedImageKey: "c.gif")
        third.load(SyntheticFrameSource(frameCount: 10), sharedImageKey: "c.gif")
        #expect((other.bufferPolicy as? SharedBufferPolicy)?.imageKey == "c.gif")
        other.play()
        third.play()
        for k in 60..<120 { clock.tick(atNanoseconds: RefreshPattern.fixed(hertz: 60).nanoseconds(ofTick: k)) }
        let key = SharedFrameKey(imageKey: "c.gif", size: PixelSize(width: 4, height: 2), pixelFormat: .rgba8)
        #expect(cache.decodeCount(for: key) >= 10)
        #expect(other.diagnostics.framesFromSharedCache + third.diagnostics.framesFromSharedCache >= 10)
        _ = attachment
    }
}
