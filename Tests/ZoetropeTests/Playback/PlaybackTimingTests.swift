import Testing
import ZoetropeDemo
import ZoetropeTesting

@testable import Zoetrope

@Suite("Player timing on a manual clock")
struct PlaybackTimingTests {
    /// The demo (100 × 50 ms, forever) over 1,000 loops: at every tick the frame shown is
    /// floor(t / 50 ms) mod 100 — the ideal schedule, with no drift at all.
    @Test(
        "zero drift over 1,000 loops of the demo",
        arguments: [
            RefreshPattern.fixed(hertz: 60), .fixed(hertz: 120), .fixed(hertz: 144), .variable,
        ])
    func zeroDrift(pattern: RefreshPattern) throws {
        let source = try DemoAnimation.makeFrameSource(options: DecodingOptions(targetSize: PixelSize(width: 8, height: 8)))
        let h = PlaybackHarness(source: source, configuration: PlayerConfiguration(bufferPolicy: .keepAll))
        h.player.play()
        var mismatches = 0
        var firstMismatch: (Int64, Int?, Int)?
        let end = ns(1000 * 5.0)
        let ticks = h.run(pattern, until: end) { t, player in
            let ideal = Int((t / 50_000_000) % 100)
            let shown = player.currentFrameIndex
            if shown != ideal {
                mismatches += 1
                if firstMismatch == nil { firstMismatch = (t, shown, ideal) }
            }
        }
        #expect(mismatches == 0, "first mismatch: \(String(describing: firstMismatch))")
        #expect(h.player.playsCompleted >= 999)
        #expect(ticks > 1000 * 5 * 47)
        // Keep-all: each frame was decoded once (the poster is frame 0).
        #expect(h.executor.jobsRun == 100)
        #expect(h.player.diagnostics.stalledTicks == 0)
    }

    @Test("ticks with irregular gaps still follow the target timestamps")
    func irregularTicks() {
        let source = SyntheticFrameSource(frameCount: 10, duration: .milliseconds(40))
        let h = PlaybackHarness(source: source)
        h.player.play()
        var t: Int64 = 0
        var gaps: [Int64] = [7, 3, 19, 1, 33, 11, 16]
        var k = 0
        while t < ns(4) {
            h.clock.tick(atNanoseconds: t)
            #expect(h.player.currentFrameIndex == Int((t / 40_000_000) % 10))
            t += gaps[k % gaps.count] * 1_000_000
            k += 1
            gaps[k % gaps.count] = (gaps[k % gaps.count] * 7 + 3) % 37 + 1
        }
    }

    @Test("the default delay policy shows a 0 ms frame for 100 ms; exact keeps raw durations")
    func delayPolicy() {
        let durations: [FrameDuration] = [.zero, .milliseconds(10), .milliseconds(30)]
        let source = SyntheticFrameSource(frameCount: 3, durations: durations)
        let h = PlaybackHarness(source: source)
        h.player.play()
        var seen: [Int64: Int] = [:]
        h.run(.fixed(hertz: 1000), until: ns(0.231)) { t, p in seen[t] = p.currentFrameIndex }
        #expect(seen[ns(0.099)] == 0)
        #expect(seen[ns(0.100)] == 1)
        #expect(seen[ns(0.199)] == 1)
        #expect(seen[ns(0.200)] == 2)
        #expect(seen[ns(0.230)] == 0)
    }

    @Test("rate 2× halves every duration, 0.25× quadruples it, and rates are clamped")
    func rates() {
        let source = SyntheticFrameSource(frameCount: 10)
        let fast = PlaybackHarness(source: source, configuration: PlayerConfiguration(rate: 2))
        fast.player.play()
        fast.run(.fixed(hertz: 120), until: ns(3)) { t, p in
            #expect(p.currentFrameIndex == Int((t / 25_000_000) % 10))
        }
        let slow = PlaybackHarness(source: SyntheticFrameSource(frameCount: 10), configuration: PlayerConfiguration(rate: 0.25))
        slow.player.play()
        slow.run(.fixed(hertz: 60), until: ns(6)) { t, p in
            #expect(p.currentFrameIndex == Int((t / 200_000_000) % 10))
        }
        slow.player.setRate(10)
        #expect(slow.player.rate == 4)
        slow.player.setRate(0)
        #expect(slow.player.rate == 0.25)
    }

    @Test("a rate change mid-play continues from the frame shown, at the new speed")
    func rateChange() {
        let h = PlaybackHarness(source: SyntheticFrameSource(frameCount: 100))
        h.player.play()
        h.run(.fixed(hertz: 100), until: ns(1))  // last tick 0.99 s: frame 19, 40 ms into it
        #expect(h.player.currentFrameIndex == 19)
        h.player.setRate(2)
        h.run(.fixed(hertz: 100), from: ns(1), until: ns(1.5)) { t, p in
            // 40 ms of frame 19 done; at 2× the remaining 10 ms take 5 ms, then 25 ms per frame.
            let since = t - ns(0.99)
            let expected = since < ns(0.005) ? 19 : 20 + Int((since - ns(0.005)) / 25_000_000)
            #expect(p.currentFrameIndex == expected, "t=\(t)")
        }
    }
}
