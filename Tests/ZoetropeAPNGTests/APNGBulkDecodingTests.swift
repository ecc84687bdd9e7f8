import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport
import ZoetropeTesting

@testable import ZoetropeAPNG

/// The bulk path over APNG: frames decoded on worker threads, composited in order.
@Suite struct APNGBulkDecodingTests {
    /// `count` frames on a 40×30 canvas: full-canvas SOURCE frames, sub-rectangles blended
    /// OVER with partial alpha, and every disposal, so every way of drawing a payload runs.
    static func animation(count: Int, width: Int = 40, height: Int = 30) -> APNGWriter {
        var rng = SplitMix64(seed: 7)
        let frames = (0..<count).map { i -> APNGWriter.Frame in
            let full = i % 5 == 0
            let w = full ? width : 8 + Int(rng.next() % UInt64(width - 16)), h = full ? height : 6 + Int(rng.next() % UInt64(height - 10))
            let rgba = (0..<(w * h)).flatMap { _ in
                [
                    UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next()),
                    UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next() | 0x0F),
                ]
            }
            return APNGWriter.Frame(
                x: full ? 0 : Int(rng.next() % UInt64(width + 1 - w)), y: full ? 0 : Int(rng.next() % UInt64(height + 1 - h)),
                width: w, height: h, rgba: rgba,
                disposeOp: UInt8(i % 3), blendOp: full ? 0 : UInt8(i % 2))
        }
        return APNGWriter.animation(width: width, height: height, frames: frames)
    }

    @Test func bulkFramesEqualOneByOneAtEveryThreadCount() throws {
        let data = Self.animation(count: 23).data
        let check = BulkDecodingCheck { try APNGCoder().makeFrameSource(data: data, options: .default) }
        #expect(try check.violations(threads: [1, 2, 3, 4, 8]).isEmpty)
        #expect(try check.bulk(threads: 4).threads == 4)
        // A run that starts mid-way composites from the frames before it.
        #expect(try check.violations(9..<23, threads: [2]).isEmpty)
    }

    @Test func aFailingFrameEndsTheRunWithItsErrorAfterTheFramesBefore() throws {
        var w = Self.animation(count: 12)
        let fdATs = w.chunks.indices.filter { w.chunks[$0].type == "fdAT" }
        w.chunks[fdATs[6]].crcOverride = 0  // frame 7's data
        let data = w.data
        let check = BulkDecodingCheck { try APNGCoder().makeFrameSource(data: data, options: .default) }
        let reference = try check.oneByOne()
        #expect(reference.frames.map(\.index) == Array(0..<7))
        #expect(
            reference.error
                == "\(AnimatedImageError.truncated(format: .apng, completeFrames: 7, reason: "frame 7 does not decode: apng: invalid data: fdAT CRC mismatch"))"
        )
        for threads in [2, 4] {
            #expect(try check.bulk(threads: threads) == reference)
        }
    }

    @Test func cancellingStopsTheRunAndFreesWhatWasDecodedAhead() throws {
        let source = try Fixture.source(Self.animation(count: 40).data)
        let run = BulkFrameDecoder(source: source, frames: nil, threads: 2, tuning: .alwaysParallel)
        #expect(run.threadCount == 2)
        #expect(run.framesInFlight == 4)
        var buffer = PixelBuffer()
        let payloadBytes = 40 * 30 * 4
        for expected in 0..<5 {
            #expect(try run.nextFrame(into: &buffer) == expected)
            // Payloads decoded ahead plus recycled storage stay within the window.
            // Each array may be rounded up by the allocator (to a page for large ones).
            #expect(run.retainedByteCount <= (run.framesInFlight + 1) * (payloadBytes + 4096))
        }
        run.cancel()
        #expect(run.retainedByteCount == 0)
        #expect(try run.nextFrame(into: &buffer) == nil)
        // The source is left usable: the one-frame path still decodes any frame.
        #expect(try source.decodeFrame(at: 39) == Fixture.frames(Self.animation(count: 40).data)[39])
    }

    @Test func payloadsInFlightAreCheckedAgainstTheLimits() throws {
        // 200×150 full-canvas frames: a session of about 190 KB, payloads of 120,000 bytes.
        let frames = (0..<6).map { APNGWriter.Frame.solid(width: 200, height: 150, [UInt8(40 * $0), 9, 200, 255]) }
        let data = APNGWriter.animation(width: 200, height: 150, frames: frames).data
        let payload = 200 * 150 * 4
        // The canvas and three payloads do not fit 400,000 bytes: one thread.
        let tight = DecodingOptions(limits: Limits(maxAllocationBytes: 400_000))
        let run = BulkFrameDecoder(
            source: try APNGCoder().makeFrameSource(data: data, options: tight), frames: nil, threads: 4,
            tuning: .alwaysParallel)
        #expect(run.threadCount == 1)
        #expect(run.framesInFlight == 0)
        var got: [PixelBuffer] = []
        var buffer = PixelBuffer()
        while try run.nextFrame(into: &buffer) != nil { got.append(buffer) }
        #expect(got == (try Fixture.frames(data)))
        // Four threads want 8 payloads in flight (plus one); the canvas and 5 fit 6 payloads' bytes.
        let roomy = DecodingOptions(limits: Limits(maxAllocationBytes: 6 * payload))
        let wide = BulkFrameDecoder(
            source: try APNGCoder().makeFrameSource(data: data, options: roomy), frames: nil, threads: 4,
            tuning: .alwaysParallel)
        #expect(wide.threadCount == 4)
        #expect(wide.framesInFlight == 4)
    }

    @Test func payloadsInFlightStayWithinOneCanvasPlusTheTuningsExtraBytes() throws {
        // 200×200 full-canvas frames: payloads of one canvas each (160,000 bytes).
        let frames = (0..<6).map { APNGWriter.Frame.solid(width: 200, height: 200, [UInt8(40 * $0), 9, 200, 255]) }
        let data = APNGWriter.animation(width: 200, height: 200, frames: frames).data
        let canvas = 200 * 200 * 4
        func run(extra: Int) throws -> BulkFrameDecoder {
            BulkFrameDecoder(
                source: try APNGCoder().makeFrameSource(data: data, options: .default), frames: nil, threads: 2,
                tuning: BulkTuning(minimumCanvasPixels: 0, minimumParallelism: 0, extraPayloadBytes: extra))
        }
        // Nothing beyond one canvas: not even two payloads ahead fit, so one thread.
        let none = try run(extra: 0)
        #expect(none.threadCount == 1)
        #expect(none.framesInFlight == 0)
        // Two canvases more: three payloads (two ahead, one being delivered) of the five two threads want.
        let three = try run(extra: 2 * canvas)
        #expect(three.threadCount == 2)
        #expect(three.framesInFlight == 2)
        var got: [PixelBuffer] = []
        var buffer = PixelBuffer()
        while try three.nextFrame(into: &buffer) != nil {
            got.append(buffer)
            #expect(three.retainedByteCount <= 3 * (canvas + 4096))
        }
        #expect(got == (try Fixture.frames(data)))
        // The standard tuning: 64 MiB beyond one canvas holds the whole window of these small frames.
        let standard = BulkFrameDecoder(source: try APNGCoder().makeFrameSource(data: data, options: .default), threads: 2)
        #expect(standard.framesInFlight == 4)
    }

    @Test func aRunShortOfCoresGoesOnOneFrameAfterAnother() throws {
        let data = Self.animation(count: 30).data
        let reference = try Fixture.frames(data)
        for (minimum, fallsBack) in [(Double.infinity, true), (0, false)] {
            let run = BulkFrameDecoder(
                source: try Fixture.source(data), frames: nil, threads: 2,
                tuning: BulkTuning(minimumCanvasPixels: 0, minimumParallelism: minimum))
            var frames: [PixelBuffer] = []
            var buffer = PixelBuffer()
            while try run.nextFrame(into: &buffer) != nil {
                frames.append(buffer)
                // The first check comes after 12 frames.
                if frames.count < 12 { #expect(!run.fellBackToOneThread) }
            }
            #expect(run.fellBackToOneThread == fallsBack)
            #expect(frames == reference)
            #expect(run.retainedByteCount == 0 || !fallsBack)
        }
    }

    @Test func smallCanvasesOneThreadAndOneFrameTakeTheOneFramePath() throws {
        // 40×30 is under the 16,384 pixels a run starts workers for; 200×200 is over.
        #expect(BulkFrameDecoder(source: try Fixture.source(Self.animation(count: 3).data), threads: 2).threadCount == 1)
        let big = (0..<3).map { APNGWriter.Frame.solid(width: 200, height: 200, [UInt8(60 * $0), 9, 200, 255]) }
        let bigData = APNGWriter.animation(width: 200, height: 200, frames: big).data
        #expect(BulkFrameDecoder(source: try Fixture.source(bigData), threads: 2).threadCount == 2)
        let data = Self.animation(count: 3).data
        #expect(BulkFrameDecoder(source: try Fixture.source(bigData), threads: 1).threadCount == 1)
        #expect(BulkFrameDecoder(source: try Fixture.source(bigData), frames: 2..<3, threads: 4).threadCount == 1)
        let clamped = BulkFrameDecoder(source: try Fixture.source(data), frames: 1..<99, threads: 2)
        #expect(clamped.frames == 1..<3)
    }

    /// An application's own policy that keeps every frame, as `.keepAll` does.
    struct KeepEverythingPolicy: FrameBufferPolicy {
        func windowSize(in context: FrameBufferContext) -> Int { 2 }
        var name: String { "app-keep-everything" }
        var keepsEveryFrame: Bool { true }
    }

    @Test(
        "a player whose policy keeps every frame (built in or the application's) decodes in bulk",
        arguments: [false, true])
    func aKeepAllPlayerTakesItsFramesFromTheBulkPath(applicationPolicy: Bool) throws {
        // 200×180: over the canvas size a run starts workers for.
        let data = Self.animation(count: 23, width: 200, height: 180).data
        let reference = try Fixture.frames(data)
        let clock = ManualClock()
        let display = HeadlessDisplay()
        // Its own decode thread: the shared pool serves every other test's players too, and on
        // a loaded machine under the thread sanitizer its queue can hold this one back for long.
        let player = AnimationPlayer(
            source: try Fixture.source(data), clock: clock,
            configuration: PlayerConfiguration(
                bufferPolicy: applicationPolicy
                    ? KeepEverythingPolicy() : KeepAllBufferPolicy(),
                executor: DecodeWorkerPool(workerCount: 1)))
        display.setAnimation(player)
        // Only a bound on a hang: the loop ends as soon as every frame is decoded.
        let deadline = Date().addingTimeInterval(120)
        while player.diagnostics.framesDecoded < 23, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(player.diagnostics.framesDecoded == 23)
        #expect(player.framesDecodedInParallel == 23)
        // Every frame shows, in order, with the pixels decoding one by one gives.
        for k in 0..<23 {
            clock.tick(at: .milliseconds(100 * k))
            #expect(display.currentFrameIndex == k)
            let same = display.currentFrame == reference[k]
            #expect(same, "frame \(k)")
        }
    }
}
