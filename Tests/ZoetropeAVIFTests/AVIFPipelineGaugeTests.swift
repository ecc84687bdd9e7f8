import Testing
import Zoetrope

@testable import ZoetropeAVIF

@Suite struct AVIFPipelineGaugeTests {
    /// Feeds `n` pipelined frames with the given times (ms).
    static func feed(_ gauge: inout AVIFPipelineGauge, _ n: Int, decode: Int64, blocked: Int64, copy: Int64) {
        for _ in 0..<n {
            gauge.recordPipelined(decodeNanos: decode * 1_000_000, blockedNanos: blocked * 1_000_000, copyNanos: copy * 1_000_000)
        }
    }

    @Test func aWindowThatOverlapsKeepsThePipeline() {
        var g = AVIFPipelineGauge()
        // Decode 4 ms on the worker, the caller waited 1 ms and copied for 0.5 ms: 2.5 ms saved a frame.
        for _ in 0..<(3 * AVIFPipelineGauge.window) {
            g.recordPipelined(decodeNanos: 4_000_000, blockedNanos: 1_000_000, copyNanos: 500_000)
        }
        #expect(g.pipelining)
        #expect(g.fallbacks == 0)
    }

    @Test func aWindowWithoutOverlapFallsBackToInlineAndProbesAgainLater() {
        var g = AVIFPipelineGauge()
        // No free core: the caller blocks for the whole decode and the copy is pure loss.
        Self.feed(&g, AVIFPipelineGauge.window - 1, decode: 4, blocked: 4, copy: 1)
        #expect(g.pipelining, "decided only at the end of a window")
        Self.feed(&g, 1, decode: 4, blocked: 4, copy: 1)
        #expect(!g.pipelining)
        #expect(g.fallbacks == 1)
        for _ in 0..<(AVIFPipelineGauge.probeInterval - 1) { g.recordInline() }
        #expect(!g.pipelining)
        g.recordInline()
        #expect(g.pipelining, "tried again after probeInterval inline frames")
        // The probe window starts from zero: one good window keeps it.
        Self.feed(&g, AVIFPipelineGauge.window, decode: 4, blocked: 1, copy: 1)
        #expect(g.pipelining)
        #expect(g.fallbacks == 1)
    }

    @Test func oneSlowFrameInAGoodWindowDoesNotFallBack() {
        var g = AVIFPipelineGauge()
        Self.feed(&g, AVIFPipelineGauge.window - 1, decode: 10, blocked: 2, copy: 1)
        // A frame the caller waited long for (a preemption): the window as a whole still saved time.
        Self.feed(&g, 1, decode: 10, blocked: 50, copy: 1)
        #expect(g.pipelining)
    }

    @Test func absurdTimesDoNotTrap() {
        var g = AVIFPipelineGauge()
        for _ in 0..<AVIFPipelineGauge.window {
            g.recordPipelined(decodeNanos: .max, blockedNanos: .min, copyNanos: 0)
        }
        #expect(g.fallbacks == 0)
        for _ in 0..<AVIFPipelineGauge.window {
            g.recordPipelined(decodeNanos: .min, blockedNanos: .max, copyNanos: .max)
        }
        #expect(g.fallbacks == 1)
    }

    @Test(.enabled(if: AVIFTestEncoder.isAvailable, "libavif cannot encode with aom here"))
    func switchingToInlineMidSequenceGivesTheSameFrames() throws {
        let coder = AVIFCoder()
        let e = AVIFTestEncoder(width: 256, height: 256)
        let colours: [[UInt16]] = [[255, 0, 0, 255], [0, 255, 0, 200], [0, 0, 255, 100], [9, 99, 199, 0], [200, 100, 50, 255]]
        let data = try e.encode(colours.indices.map { e.halves(colours[$0], colours[(colours.count - 1) - $0], durationMs: 20) })
        let one = try coder.makeFrameSource(data: data, options: DecodingOptions(threadCount: 1))
        let frames = try (0..<colours.count).map { try one.decodeFrame(at: $0) }
        let two = try #require(try coder.makeFrameSource(data: data, options: DecodingOptions(threadCount: 2)) as? AVIFFrameSource)
        #expect(try two.decodeFrame(at: 0) == frames[0])
        #expect(try two.decodeFrame(at: 1) == frames[1])  // frame 2 is now decoding on the worker
        var inline = AVIFPipelineGauge()
        Self.feed(&inline, AVIFPipelineGauge.window, decode: 1, blocked: 1, copy: 1)
        #expect(!inline.pipelining)
        two.setPipelineGauge(inline)
        for i in 2..<colours.count { #expect(try two.decodeFrame(at: i) == frames[i], "frame \(i) after the switch") }
        for i in [1, 4, 0, 3] { #expect(try two.decodeFrame(at: i) == frames[i], "random access to frame \(i)") }
    }
}
