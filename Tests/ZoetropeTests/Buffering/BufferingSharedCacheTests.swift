import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("Shared frame cache across players of one image")
struct BufferingSharedCacheTests {
    @Test("eight players of one image in step decode each frame once per loop")
    func oncePerLoop() {
        let cache = SharedFrameCache()
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(workerCount: 2, constantCost: .milliseconds(10))
        let attachment = executor.attach(to: clock)
        var players: [AnimationPlayer] = []
        var displays: [RecordingDisplay] = []
        for _ in 0..<8 {
            let d = RecordingDisplay()
            let config = PlayerConfiguration(bufferPolicy: .shared(cache, imageKey: "same.gif"), executor: executor, memoryPressure: nil)
            let p = AnimationPlayer(source: SyntheticFrameSource(frameCount: 10), clock: clock, display: d, configuration: config)
            players.append(p)
            displays.append(d)
            p.play()
        }
        clock.run(.fixed(hertz: 60), for: .seconds(3))  // six loops of 0.5 s
        let key = SharedFrameKey(imageKey: "same.gif", size: PixelSize(width: 4, height: 2), pixelFormat: .rgba8)
        // Frames 1…9 once per loop; frame 0, the poster every player keeps, once in all.
        let decodes = cache.decodeCount(for: key)
        #expect(decodes <= 1 + 9 * 6 + 1)
        #expect(decodes >= 1 + 9 * 5)
        // One poster, shared: every player's poster is the same storage.
        let posters = Set(players.map { p in p.poster!.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
        #expect(posters.count == 1)
        for d in displays {
            #expect(d.indexes.count >= 55)
            for s in d.shown { #expect(s.pixelIndex == s.index) }
        }
        // One player decodes each frame; the others take it from the cache.
        let fromCache = players.map { $0.diagnostics.framesFromSharedCache }.reduce(0, +)
        #expect(fromCache >= 7 * 9 * 5)
        // Memory follows the union of windows: the poster and a few frames, not 8 players' worth.
        #expect(cache.framesHeld <= 4)
        _ = attachment
    }

    /// An application's own policy that leases its frames from a shared cache.
    struct ApplicationSharingPolicy: FrameBufferPolicy {
        let cache: SharedFrameCache
        func windowSize(in context: FrameBufferContext) -> Int { 2 }
        var name: String { "app-shared" }
        var frameSharing: FrameSharing? { FrameSharing(cache: cache, imageKey: "same.gif") }
    }

    @Test("an application's policy with frameSharing shares frames as SharedBufferPolicy does")
    func applicationPolicyShares() {
        let cache = SharedFrameCache()
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(workerCount: 2, constantCost: .milliseconds(10))
        let attachment = executor.attach(to: clock)
        let config = PlayerConfiguration(
            bufferPolicy: ApplicationSharingPolicy(cache: cache), executor: executor,
            memoryPressure: nil)
        let players = (0..<4).map { _ in
            AnimationPlayer(source: SyntheticFrameSource(frameCount: 10), clock: clock, configuration: config)
        }
        for p in players { p.play() }
        clock.run(.fixed(hertz: 60), for: .seconds(1))  // two loops of 0.5 s
        let key = SharedFrameKey(imageKey: "same.gif", size: PixelSize(width: 4, height: 2), pixelFormat: .rgba8)
        #expect(cache.decodeCount(for: key) <= 1 + 9 * 2 + 1)
        #expect(players.map { $0.diagnostics.framesFromSharedCache }.reduce(0, +) >= 3 * 9)
        // load keys the next image anew, whatever the application's policy answers.
        players[0].load(SyntheticFrameSource(frameCount: 10))
        players[0].play()
        for k in 60..<90 { clock.tick(atNanoseconds: RefreshPattern.fixed(hertz: 60).nanoseconds(ofTick: k)) }
        #expect(players[0].diagnostics.framesFromSharedCache == 0)
        _ = attachment
    }

    @Test("players of different images, or sizes, do not share")
    func distinctKeys() {
        let cache = SharedFrameCache()
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .zero)
        let attachment = executor.attach(to: clock)
        let a = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 10), clock: clock,
            configuration: PlayerConfiguration(bufferPolicy: .shared(cache, imageKey: "a"), executor: executor, memoryPressure: nil))
        let b = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 10), clock: clock,
            configuration: PlayerConfiguration(bufferPolicy: .shared(cache, imageKey: "b"), executor: executor, memoryPressure: nil))
        a.play()
        b.play()
        clock.run(.fixed(hertz: 60), for: .milliseconds(490))
        let size = PixelSize(width: 4, height: 2)
        #expect(cache.decodeCount(for: SharedFrameKey(imageKey: "a", size: size, pixelFormat: .rgba8)) == 10)
        #expect(cache.decodeCount(for: SharedFrameKey(imageKey: "b", size: size, pixelFormat: .rgba8)) == 10)
        a.prepareForReuse()
        b.prepareForReuse()
        #expect(cache.framesHeld == 0)
        _ = attachment
    }

    @Test("the cache hands out, waits, publishes and frees by lease")
    func leases() {
        let cache = SharedFrameCache()
        let key = SharedFrameKey(imageKey: "x", size: PixelSize(width: 1, height: 1), pixelFormat: .rgba8)
        guard case .decodeHere(var buffer) = cache.acquire(key, frame: 3, waiter: {}) else { Issue.record("expected decodeHere"); return }
        let woken = Flag()
        guard case .inProgress = cache.acquire(key, frame: 3, waiter: { woken.set() }) else { Issue.record("expected inProgress"); return }
        buffer.reshape(width: 1, height: 1)
        buffer.setPixel(x: 0, y: 0, [9, 9, 9, 9])
        cache.publish(key, frame: 3, buffer: buffer)
        #expect(woken.isSet)
        guard case .ready(let b) = cache.acquire(key, frame: 3, waiter: {}) else { Issue.record("expected ready"); return }
        #expect(b.pixel(x: 0, y: 0) == [9, 9, 9, 9])
        #expect(cache.framesHeld == 1)
        cache.release(key, frame: 3)
        #expect(cache.framesHeld == 1)
        cache.release(key, frame: 3)
        #expect(cache.framesHeld == 0)
        #expect(cache.decodeCount(for: key) == 1)
    }
}
