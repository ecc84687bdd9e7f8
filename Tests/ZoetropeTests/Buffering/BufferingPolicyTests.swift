import Testing

@testable import Zoetrope

@Suite("Frame buffer policies: bytes held are what each policy promises")
struct BufferingPolicyTests {
    static let size = PixelSize(width: 16, height: 8)
    static let frameBytes = 16 * 8 * 4

    func harness(_ policy: any FrameBufferPolicy, frames: Int = 20, cost: Duration = .milliseconds(10)) -> PlaybackHarness {
        PlaybackHarness(
            source: SyntheticFrameSource(frameCount: frames, size: Self.size),
            configuration: PlayerConfiguration(bufferPolicy: policy), cost: { _ in cost })
    }

    @Test("one ahead: never more than the poster and two frames, at every tick")
    func oneAhead() {
        let h = harness(.oneAhead)
        h.player.play()
        var peak = 0
        h.run(until: ns(5)) { _, p in
            let r = p.lastTickReport!
            #expect(r.framesHeld <= 3)
            #expect(r.bytesHeld <= 3 * Self.frameBytes)
            peak = max(peak, r.bytesHeld)
        }
        #expect(peak == 3 * Self.frameBytes)
        #expect(h.player.diagnostics.peakBytesHeld == 3 * Self.frameBytes)
    }

    @Test("N ahead: at most the poster and N + 1 frames; the window fills")
    func nAhead() {
        let h = harness(.ahead(4))
        h.player.play()
        var peak = 0
        h.run(until: ns(5)) { _, p in
            #expect(p.lastTickReport!.framesHeld <= 6)
            peak = max(peak, p.lastTickReport!.framesHeld)
        }
        #expect(peak >= 5)
    }

    @Test("keep all: every frame decoded once, then reused across loops")
    func keepAll() {
        let h = harness(.keepAll)
        h.player.play()
        h.run(until: ns(5))  // five loops of 1 s
        #expect(h.executor.jobsRun == 20)
        #expect(h.executor.decodesPerFrame.values.allSatisfy { $0 == 1 })
        #expect(h.player.diagnostics.bytesHeld == 20 * Self.frameBytes)
        #expect(h.player.playsCompleted == 4)
    }

    @Test("memory budget: all frames when they fit, else the largest window that fits, never fewer than two")
    func budget() {
        let fits = harness(.memoryBudget(bytes: 20 * Self.frameBytes))
        fits.player.play()
        fits.run(until: ns(3))
        #expect(fits.executor.jobsRun == 20)
        #expect(fits.player.diagnostics.bytesHeld == 20 * Self.frameBytes)

        let window = harness(.memoryBudget(bytes: 6 * Self.frameBytes + 100))
        window.player.play()
        window.run(until: ns(3)) { _, p in #expect(p.lastTickReport!.bytesHeld <= 6 * Self.frameBytes) }
        #expect(window.player.windowSize == 5)

        let tiny = harness(.memoryBudget(bytes: 10))
        tiny.player.play()
        tiny.run(until: ns(2)) { _, p in #expect(p.lastTickReport!.framesHeld <= 3) }
        #expect(tiny.player.windowSize == 2)
        #expect(tiny.display.indexes.count == 40)
    }

    @Test("memory budget: RGBA16 frames count their 8 bytes a pixel")
    func budgetOfDeepFrames() {
        let deep = PlaybackHarness(
            source: SyntheticFrameSource(frameCount: 20, size: Self.size, pixelFormat: .rgba16),
            configuration: PlayerConfiguration(bufferPolicy: .memoryBudget(bytes: 6 * 2 * Self.frameBytes + 100)), cost: { _ in .milliseconds(10) })
        deep.player.play()
        deep.run(until: ns(3)) { _, p in #expect(p.lastTickReport!.bytesHeld <= 6 * 2 * Self.frameBytes) }
        #expect(deep.player.windowSize == 5)
    }

    @Test("window sizes of the built-ins")
    func windowSizes() {
        let c = FrameBufferContext(frameCount: 50, frameByteCount: 1000)
        #expect(AheadBufferPolicy.oneAhead.effectiveWindow(in: c) == 2)
        #expect(AheadBufferPolicy.ahead(7).effectiveWindow(in: c) == 8)
        #expect(AheadBufferPolicy.ahead(700).effectiveWindow(in: c) == 50)
        #expect(KeepAllBufferPolicy.keepAll.effectiveWindow(in: c) == 50)
        #expect(MemoryBudgetBufferPolicy.memoryBudget(bytes: 50_000).effectiveWindow(in: c) == 50)
        #expect(MemoryBudgetBufferPolicy.memoryBudget(bytes: 49_999).effectiveWindow(in: c) == 48)
        #expect(MemoryBudgetBufferPolicy.memoryBudget(bytes: 0).effectiveWindow(in: c) == 2)
        var pressed = c
        pressed.underMemoryPressure = true
        #expect(KeepAllBufferPolicy.keepAll.effectiveWindow(in: pressed) == 2)
        #expect(AheadBufferPolicy.oneAhead.effectiveWindow(in: FrameBufferContext(frameCount: 1, frameByteCount: 1)) == 1)
    }

    @Test(
        "steady-state playback allocates no new pixel buffers",
        arguments: [
            AnyPolicy(.oneAhead), AnyPolicy(.ahead(3)), AnyPolicy(.memoryBudget(bytes: 5 * 16 * 8 * 4)),
        ])
    func pooling(policy: AnyPolicy) {
        let source = SyntheticFrameSource(frameCount: 20, size: Self.size)
        let h = PlaybackHarness(
            source: source, configuration: PlayerConfiguration(bufferPolicy: policy.policy),
            cost: { _ in .milliseconds(10) })
        h.player.play()
        h.run(until: ns(2))
        let created = h.player.diagnostics.buffersCreated
        let allocating = source.allocatingDecodes
        let decoded = source.decodedFrames.count
        h.run(from: ns(2), until: ns(20))
        #expect(source.decodedFrames.count > decoded + 300)
        #expect(h.player.diagnostics.buffersCreated == created)
        // No decode in 18 s of playback needed new storage: every one reused a pooled buffer.
        #expect(source.allocatingDecodes == allocating)
        #expect(allocating == created)
        for s in h.display.shown { #expect(s.pixelIndex == s.index) }
    }

    @Test("the policy can be swapped while playing; frames outside the new window are freed at once")
    func swapAtRunTime() {
        let h = harness(.keepAll)
        h.player.play()
        h.run(until: ns(1.5))
        #expect(h.player.diagnostics.framesHeld == 20)
        h.player.setBufferPolicy(.oneAhead)
        #expect(h.player.diagnostics.framesHeld <= 4)  // poster, current, next, one idle buffer
        h.run(from: ns(1.5), until: ns(3)) { _, p in #expect(p.lastTickReport!.framesHeld <= 3) }
        h.player.setBufferPolicy(.keepAll)
        h.run(from: ns(3), until: ns(5))
        #expect(h.player.diagnostics.framesHeld == 20)
        for s in h.display.shown { #expect(s.pixelIndex == s.index) }
    }
}
