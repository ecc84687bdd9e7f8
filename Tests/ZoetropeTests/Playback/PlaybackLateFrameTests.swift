import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("Late frames: stall and catch up")
struct PlaybackLateFrameTests {
    @Test("stall with decodes slower than a frame: every frame in order, none skipped")
    func stallNeverSkips() {
        let source = SyntheticFrameSource(frameCount: 12)
        let h = PlaybackHarness(source: source, cost: { _ in .milliseconds(80) })
        h.player.play()
        h.run(.fixed(hertz: 60), until: ns(10))
        let shown = h.display.shown
        #expect(shown.count > 50)
        for (a, b) in zip(shown, shown.dropFirst()) {
            #expect(b.index == (a.index + 1) % 12, "jumped from \(a.index) to \(b.index)")
        }
        for s in shown { #expect(s.pixelIndex == s.index) }
        let d = h.player.diagnostics
        #expect(d.skippedFrames == 0)
        #expect(d.stalledTicks > 0)
        #expect(d.stallEpisodes > 0)
        // At 80 ms per decode the animation runs at most one frame per 80 ms.
        #expect(shown.count <= Int(10 / 0.08) + 1)
    }

    @Test("a stall holds the frame and caps the time: the next frame then gets its full duration")
    func stallCapsTime() {
        // Frame 3 takes 500 ms to decode, the others nothing.
        let source = SyntheticFrameSource(frameCount: 6, duration: .milliseconds(100))
        let h = PlaybackHarness(source: source, cost: { $0 == 3 ? .milliseconds(500) : .zero })
        h.player.play()
        var shownAt: [Int: Int64] = [:]
        h.run(.fixed(hertz: 1000), until: ns(1.2)) { t, p in
            if let i = p.currentFrameIndex, shownAt[i] == nil { shownAt[i] = t }
        }
        // Frame 3's decode starts when frame 2 shows (200 ms) and ends at 700 ms.
        #expect(shownAt[2] == ns(0.2))
        #expect(shownAt[3] == ns(0.7))
        #expect(shownAt[4] == ns(0.8))
        #expect(h.player.diagnostics.skippedFrames == 0)
    }

    @Test("catch up skips decoded frames to keep time and never shows an undecoded one")
    func catchUp() {
        let source = SyntheticFrameSource(frameCount: 20)
        let config = PlayerConfiguration(bufferPolicy: .ahead(8), latePolicy: .catchUp)
        // Frame 5 is slow; the rest are quick, so after it the player is behind with frames ready.
        let h = PlaybackHarness(source: source, configuration: config, cost: { $0 == 5 ? .milliseconds(300) : .milliseconds(5) })
        h.player.play()
        var lastIndex = 0
        h.run(.fixed(hertz: 60), until: ns(3)) { _, p in
            let i = p.currentFrameIndex ?? 0
            let r = p.lastTickReport!
            #expect(r.skipped == 0 || i != lastIndex)
            lastIndex = i
        }
        for s in h.display.shown { #expect(s.pixelIndex == s.index) }
        let d = h.player.diagnostics
        #expect(d.skippedFrames > 0)
        // Back on schedule after catching up: at 2.99 s the ideal frame is 59 mod 20 = 19.
        #expect(h.player.currentFrameIndex == Int((ns(2.99) / 50_000_000) % 20))
    }

    @Test("catch up with slow decodes never passes an undecoded frame")
    func catchUpSlowDecodes() {
        let source = SyntheticFrameSource(frameCount: 12)
        let h = PlaybackHarness(
            source: source, configuration: PlayerConfiguration(latePolicy: .catchUp),
            cost: { _ in .milliseconds(80) })
        h.player.play()
        h.run(.fixed(hertz: 60), until: ns(5))
        // One ahead: only the next frame (and the poster, frame 0) is ever decoded, so a
        // skip can only pass the last frame to land on the poster.
        for (a, b) in zip(h.display.shown, h.display.shown.dropFirst()) {
            #expect(b.index == (a.index + 1) % 12 || (b.index == 0 && a.index == 10), "\(a.index) → \(b.index)")
        }
        for s in h.display.shown { #expect(s.pixelIndex == s.index) }
        #expect(h.player.diagnostics.stalledTicks > 0)
    }

    @Test("catch up restarts timing instead of skipping a whole loop")
    func catchUpRestartsTiming() {
        let source = SyntheticFrameSource(frameCount: 4, duration: .milliseconds(50))
        let h = PlaybackHarness(source: source, configuration: PlayerConfiguration(bufferPolicy: .keepAll, latePolicy: .catchUp))
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(0.5))
        #expect(h.player.currentFrameIndex == 1)  // 0.49 s: frame 9 mod 4
        // A 900 ms gap (within the 1 s step cap) is more than a 200 ms loop: one frame advances.
        h.clock.tick(atNanoseconds: ns(1.39))
        #expect(h.player.currentFrameIndex == 2)
        #expect(h.player.lastTickReport?.skipped == 0)
    }

    @Test("a suspended process does not fast-forward: one tick advances at most maxStep")
    func maxStep() {
        let source = SyntheticFrameSource(frameCount: 100, duration: .milliseconds(50))
        var config = PlayerConfiguration(bufferPolicy: .keepAll, latePolicy: .catchUp)
        config.maxStep = .milliseconds(200)
        let h = PlaybackHarness(source: source, configuration: config)
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(1))
        #expect(h.player.currentFrameIndex == 19)
        h.clock.tick(atNanoseconds: ns(60))
        #expect(h.player.currentFrameIndex == 23)  // 0.99 + 0.2 s
    }

    @Test("a clock fitted to long frames still plays them on time (the step cap yields to the frame)")
    func longFrames() {
        var config = PlayerConfiguration()
        config.maxStep = .milliseconds(500)
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 3, duration: .seconds(2)), configuration: config)
        h.player.play()
        for k in 0..<8 {
            h.clock.tick(atNanoseconds: Int64(k) * 2_000_000_000)
            #expect(h.player.currentFrameIndex == k % 3)
        }
    }
}
