import Foundation
import Testing
import ZoetropeTesting
import ZoetropeUI

@testable import Zoetrope

/// Records the tag (third byte) of every frame shown, to tell images apart.
nonisolated final class TagDisplay: ConcurrentAnimationDisplay {
    private let state = Locked<[(index: Int, tag: UInt8)]>([])
    func show(_ frame: PixelBuffer, index: Int) {
        let tag = frame.bytes.count > 2 ? frame.bytes[2] : 0
        state.withLock { $0.append((index, tag)) }
    }
    var isVisible: Bool { true }
    var shown: [(index: Int, tag: UInt8)] { state.withLock { $0 } }
}

@Suite("Still-or-animated controller and player events")
struct PlaybackContentAndEventsTests {
    @MainActor
    @Test("the controller shows a still or an animation, never both, and owns its player")
    func controller() throws {
        let display = RecordingDisplay()
        let controller = AnimatedContentController(display: display)
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .zero)
        let attachment = executor.attach(to: clock)
        weak var weakPlayer: AnimationPlayer?
        do {
            let player = AnimationPlayer(
                source: SyntheticFrameSource(frameCount: 5), clock: clock,
                configuration: PlayerConfiguration(executor: executor, memoryPressure: nil))
            weakPlayer = player
            controller.setAnimation(player)
        }
        // Only the controller holds the player now; it keeps it alive and playing.
        #expect(weakPlayer != nil)
        #expect(controller.player === weakPlayer)
        for k in 0..<25 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        #expect(display.indexes == [0, 1, 2, 3, 4])

        let still = try SyntheticFrameSource(frameCount: 43).decodeFrame(at: 42)
        controller.setStill(still)
        #expect(weakPlayer == nil)  // released with the content
        #expect(display.shown.last?.pixelIndex == 42)
        let count = display.shown.count
        for k in 25..<60 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        #expect(display.shown.count == count)  // the old animation draws nothing more
        if case .still = controller.content {} else { Issue.record("content is not the still") }

        // A player kept elsewhere is stopped and cut off when replaced.
        let kept = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 5), clock: clock,
            configuration: PlayerConfiguration(executor: executor, memoryPressure: nil))
        controller.setAnimation(kept)
        for k in 60..<70 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        #expect(kept.state == .playing)
        controller.clear()
        #expect(kept.state == .stopped)
        #expect(kept.display == nil)
        let after = display.shown.count
        kept.seek(toFrame: 3)
        executor.advance(toNanoseconds: ns(1))
        #expect(display.shown.count == after)
        _ = attachment
    }

    @Test("the gate between a replaced player and the view lets nothing through once closed")
    @MainActor func gate() {
        let display = RecordingDisplay()
        let gate = GatedDisplay(display)
        let frame = SyntheticFrameSource(frameCount: 2).decodeFrameForTest(1)
        gate.show(frame, index: 1)
        gate.close()
        gate.show(frame, index: 1)
        #expect(display.indexes == [1])
        #expect(gate.isVisible == false)
    }

    @Test("events arrive as an AsyncStream in order, beside the closure API")
    func eventStream() async {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 3, loopCount: .plays(1)))
        let stream = h.player.events
        let log = EventLog(h.player)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(0.5))
        var seen: [PlayerEvent] = []
        for await event in stream {
            seen.append(event)
            if case .finished = event { break }
        }
        #expect(
            seen == [
                .frameShown(index: 0), .frameShown(index: 1), .frameShown(index: 2),
                .loopCompleted(plays: 1), .finished,
            ])
        #expect(log.all == [.loopCompleted(plays: 1), .finished])
    }

    @Test("the event stream ends when its player is freed")
    func eventStreamEndsWithThePlayer() async {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .zero)
        let attachment = executor.attach(to: clock)
        var player: AnimationPlayer? = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 3), clock: clock,
            configuration: PlayerConfiguration(executor: executor, memoryPressure: nil))
        let stream = player!.events
        player!.play()
        for k in 0..<6 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        player = nil
        var seen: [PlayerEvent] = []
        for await event in stream { seen.append(event) }  // ends: the player is gone
        #expect(seen == [.frameShown(index: 0), .frameShown(index: 1)])
        _ = attachment
    }
}

@Suite("Shared-cache keys from the image")
struct SharedCacheKeyTests {
    @Test("SHA-256 test vectors (FIPS 180-4)")
    func sha256() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("an image's key: the same bytes and options agree; other bytes or options differ")
    func imageKeys() throws {
        let coder = SyntheticCoder(durations: Array(repeating: .milliseconds(50), count: 4))
        let registry = CoderRegistry(builtIn: [coder])
        let a1 = try AnimatedImage(data: Data("SYNT-a".utf8), registry: registry)
        let a2 = try AnimatedImage(data: Data("SYNT-a".utf8), registry: registry)
        let b = try AnimatedImage(data: Data("SYNT-b".utf8), registry: registry)
        let small = try AnimatedImage(
            data: Data("SYNT-a".utf8), registry: registry,
            options: DecodingOptions(targetSize: PixelSize(width: 2, height: 1)))
        // Deep or stored-colour frames are other frames of the same bytes.
        let deep = try AnimatedImage(data: Data("SYNT-a".utf8), registry: registry, options: DecodingOptions(pixelFormat: .rgba16))
        let stored = try AnimatedImage(data: Data("SYNT-a".utf8), registry: registry, options: DecodingOptions(colorOutput: .stored))
        #expect(a1.sharedCacheKey == a2.sharedCacheKey)
        #expect(a1.sharedCacheKey != b.sharedCacheKey)
        #expect(a1.sharedCacheKey != small.sharedCacheKey)
        #expect(Set([a1.sharedCacheKey, deep.sharedCacheKey, stored.sharedCacheKey]).count == 3)
        #expect(a1.sharedCacheKey.hasPrefix("sha256:\(SHA256.hex(Data("SYNT-a".utf8)))"))
    }

    /// Waits (bounded generously) until `image`'s shared-cache name is computed and the
    /// players waiting for it have been told.
    static func waitUntilHashed(_ image: AnimatedImage) {
        let deadline = Date().addingTimeInterval(120)
        while !image.contentIdentity.waitersRan, Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        #expect(image.contentIdentity.waitersRan)
    }

    @Test("making a player of an image reads none of its bytes; a sharing player hashes them off the caller's thread")
    func noHashingOnTheCallersThread() throws {
        let coder = SyntheticCoder(durations: Array(repeating: .milliseconds(50), count: 6))
        let registry = CoderRegistry(builtIn: [coder])
        // A big file: hashing it on the caller's thread would be a visible stall.
        let image = try AnimatedImage(data: Data("SYNT-big".utf8) + Data(repeating: 7, count: 8 << 20), registry: registry)
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .milliseconds(5))
        let attachment = executor.attach(to: clock)
        let own = AnimationPlayer(
            image: image, clock: clock,
            configuration: PlayerConfiguration(executor: executor, memoryPressure: nil))
        own.play()
        let cache = SharedFrameCache()
        let shared = PlayerConfiguration(bufferPolicy: .shared(cache), executor: executor, memoryPressure: nil)
        let a = AnimationPlayer(image: image, clock: clock, configuration: shared)
        let b = AnimationPlayer(image: image, clock: clock, configuration: shared)
        // A player under its own buffers never needs the hash; sharing players only once they decode.
        #expect(!image.contentIdentity.hashStarted)
        a.play()
        b.play()
        #expect(image.contentIdentity.hashStarted)
        Self.waitUntilHashed(image)
        for k in 0..<60 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        #expect(a.diagnostics.framesFromSharedCache + b.diagnostics.framesFromSharedCache >= 5)
        let key = SharedFrameKey(imageKey: image.sharedCacheKey, size: PixelSize(width: 4, height: 2), pixelFormat: .rgba8)
        #expect(cache.decodeCount(for: key) >= 5)
        #expect(image.contentIdentity.knownName == image.sharedCacheKey)
        _ = attachment
    }

    private func sharedPlayers(_ cache: SharedFrameCache, clock: ManualClock, executor: SimulatedDecodeExecutor)
        -> (AnimationPlayer, AnimationPlayer)
    {
        // A window of all six frames: each frame is decoded once and then leased by both.
        let c = PlayerConfiguration(bufferPolicy: .shared(cache, framesAhead: 5), executor: executor, memoryPressure: nil)
        return (
            AnimationPlayer(source: SyntheticFrameSource(frameCount: 1), clock: clock, configuration: c),
            AnimationPlayer(source: SyntheticFrameSource(frameCount: 1), clock: clock, configuration: c)
        )
    }

    @Test("with the default key, different images never share frames and the same bytes do")
    func defaultKeysShareOnlyTheSameImage() throws {
        let coder = SyntheticCoder(durations: Array(repeating: .milliseconds(50), count: 6))
        let registry = CoderRegistry(builtIn: [coder])
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .milliseconds(5))
        let attachment = executor.attach(to: clock)

        // Two different sources of the same size and frame count, no key: nothing shared.
        let cache = SharedFrameCache()
        let c = PlayerConfiguration(bufferPolicy: .shared(cache), executor: executor, memoryPressure: nil)
        let x = SyntheticFrameSource(frameCount: 6, tag: 1), y = SyntheticFrameSource(frameCount: 6, tag: 2)
        let dx = TagDisplay(), dy = TagDisplay()
        let px = AnimationPlayer(source: x, clock: clock, display: dx, configuration: c)
        let py = AnimationPlayer(source: y, clock: clock, display: dy, configuration: c)
        px.play()
        py.play()
        for k in 0..<60 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        #expect(px.diagnostics.framesFromSharedCache == 0 && py.diagnostics.framesFromSharedCache == 0)
        #expect(Set(x.decodedFrames) == Set(0..<6) && Set(y.decodedFrames) == Set(0..<6))
        #expect(dx.shown.allSatisfy { $0.tag == 1 } && dy.shown.allSatisfy { $0.tag == 2 })
        #expect(dx.shown.count >= 6)

        // Two images of the same bytes, loaded into players with no key: frames shared.
        let shared = SharedFrameCache()
        let (p, q) = sharedPlayers(shared, clock: clock, executor: executor)
        let imageP = try AnimatedImage(data: Data("SYNT-same".utf8), registry: registry)
        let imageQ = try AnimatedImage(data: Data("SYNT-same".utf8), registry: registry)
        try p.load(imageP)
        try q.load(imageQ)
        p.play()
        q.play()
        // Each image is hashed on a thread of its own; the players wait for it.
        Self.waitUntilHashed(imageP)
        Self.waitUntilHashed(imageQ)
        for k in 60..<120 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        #expect(p.diagnostics.framesFromSharedCache + q.diagnostics.framesFromSharedCache >= 6)
        let key = try SharedFrameKey(
            imageKey: AnimatedImage(data: Data("SYNT-same".utf8), registry: registry).sharedCacheKey,
            size: PixelSize(width: 4, height: 2), pixelFormat: .rgba8)
        #expect(shared.decodeCount(for: key) == 6)
        _ = attachment
    }

    @Test(
        "load never shows the old image's frames, even with a decode of the old image in flight",
        arguments: [false, true])
    func loadNeverShowsOldFrames(explicitKey: Bool) {
        let cache = SharedFrameCache()
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: .milliseconds(30))
        let attachment = executor.attach(to: clock)
        let policy: SharedBufferPolicy = explicitKey ? .shared(cache, imageKey: "one-name.gif") : .shared(cache)
        let c = PlayerConfiguration(bufferPolicy: policy, executor: executor, memoryPressure: nil)
        let display = TagDisplay()
        // Another player keeps the old image's frames in the cache the whole time.
        let keeper = AnimationPlayer(source: SyntheticFrameSource(frameCount: 6, tag: 1), clock: clock, configuration: c)
        let player = AnimationPlayer(
            source: SyntheticFrameSource(frameCount: 6, tag: 1), clock: clock, display: display,
            configuration: c)
        keeper.play()
        player.play()
        for k in 0..<47 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }  // a decode is in flight
        let before = display.shown.count
        #expect(before > 0 && display.shown.allSatisfy { $0.tag == 1 })
        player.load(SyntheticFrameSource(frameCount: 6, tag: 2))
        player.play()
        for k in 47..<150 { clock.tick(atNanoseconds: Int64(k) * 10_000_000) }
        let after = display.shown.dropFirst(before)
        #expect(after.count >= 6)
        #expect(after.allSatisfy { $0.tag == 2 }, "\(after.map(\.tag))")
        #expect(player.diagnostics.framesFromSharedCache == 0)
        _ = attachment
    }
}

extension SyntheticFrameSource {
    /// Frame `index`, decoded (the synthetic source cannot fail on a valid index).
    func decodeFrameForTest(_ index: Int) -> PixelBuffer {
        var b = PixelBuffer()
        try? decodeFrame(at: index, into: &b)
        return b
    }
}
