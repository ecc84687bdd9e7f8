import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// A big GIF opens in two steps: the block walk and frame 0's scan, then the other
/// images' scans when the frame count is first needed. Frame 0 decodes in between, and
/// whatever the file, the info and the frames are the one-step index's.
@Suite struct GIFTwoStepIndexTests {
    typealias Fixture = GIFParallelScanTests

    /// Whether `source` still waits for the rest of its scans.
    static func isWalked(_ source: any FrameSource) -> Bool {
        (source as? GIFFrameSource)?.isWaitingForScans ?? false
    }

    /// The whole-file result with every frame's pixels, through the one-step index.
    static func oneStep(_ bytes: [UInt8]) throws -> (info: AnimationInfo, frames: [PixelBuffer]) {
        let index = try Fixture.sequential(bytes)
        let info = GIFIndexing.Complete(index).info
        let source = try GIFFrameSource(data: Data(bytes), options: DecodingOptions.default.without(.gifTwoStep))
        #expect(!source.isWaitingForScans)
        return (info, try (0..<info.frameCount).map { try source.decodeFrame(at: $0) })
    }

    @Test func frameZeroDecodesBeforeTheRestIsScanned() throws {
        let bytes = Fixture.file()
        let source = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        #expect(Self.isWalked(source))
        let first = try source.decodeFrame(at: 0)
        #expect(Self.isWalked(source))
        let expected = try Self.oneStep(bytes)
        #expect(first == expected.frames[0])
        // The info completes the index: the one-step info, and the same frames.
        #expect(source.info == expected.info)
        #expect(!Self.isWalked(source))
        #expect(try (0..<12).map { try source.decodeFrame(at: $0) } == expected.frames)
    }

    @Test func anImagesSessionsReuseItsIndexAndDecodeTheSameFrames() throws {
        for bytes in [Fixture.file(), Fixture.file(badCodeInFrame: 5)] {
            let image = try AnimatedImage(data: Data(bytes), registry: CoderRegistry(builtIn: [GIFCoder()]))
            let expected = try Self.oneStep(bytes)
            for _ in 0..<2 {
                // A new open of this file would walk it again and scan frame 0 beside the walk.
                let source = try image.makeFrameSource()
                #expect(!Self.isWalked(source))
                #expect(source.info == expected.info)
                let order = Array(0..<expected.info.frameCount)
                #expect(try order.map { try source.decodeFrame(at: $0) } == expected.frames)
                #expect(try order.reversed().map { try source.decodeFrame(at: $0) } == expected.frames.reversed())
            }
        }
    }

    @Test func aBadCodeAfterFrameZeroEndsTheAnimationAsTheOneStepIndexDoes() throws {
        let bytes = Fixture.file(badCodeInFrame: 5)
        let source = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        #expect(Self.isWalked(source))
        let expected = try Self.oneStep(bytes)
        #expect(expected.info.frameCount == 5)
        #expect(try source.decodeFrame(at: 0) == expected.frames[0])
        // Frame 7 exists in the walk but not in the file as decoded: the truncation, as in one step.
        let truncation = try #require(expected.info.truncation)
        #expect(throws: truncation) { try source.decodeFrame(at: 7) }
        #expect(source.info == expected.info)
    }

    @Test func aBadCodeInFrameZeroOrACutFileOpensInOneStep() throws {
        for bytes in [Fixture.file(badCodeInFrame: 0), Fixture.file(trailer: false)] {
            let outcome = Result { try GIFCoder().makeFrameSource(data: Data(bytes), options: .default) }
            let expected = Result { try Self.oneStep(bytes) }
            switch (outcome, expected) {
            case (.success(let source), .success(let whole)):
                #expect(!Self.isWalked(source))
                #expect(source.info == whole.info)
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)")
            default:
                Issue.record("two-step and one-step disagree: \(outcome) vs \(expected)")
            }
        }
    }

    @Test func aLimitTheWalkPassesIsDecidedInOneStep() throws {
        // Twelve frames: a limit of 11 fails the walk, so the file opens in one step and
        // fails there exactly as before.
        var options = DecodingOptions.default
        options.limits.maxFrameCount = 11
        let bytes = Fixture.file()
        #expect(throws: AnimatedImageError.self) { try GIFCoder().makeFrameSource(data: Data(bytes), options: options) }
        // With a bad code at frame 5 the one-step walk stops before the limit: 5 frames.
        let bad = try GIFCoder().makeFrameSource(data: Data(Fixture.file(badCodeInFrame: 5)), options: options)
        #expect(bad.info.frameCount == 5)
    }

    /// A source opened in two steps gives the one-step frames in another output format too,
    /// frame 0 first (before the scans) and the rest after them.
    @Test func aTwoStepOpenConvertsToOtherOutputFormatsAsOneStepDoes() throws {
        let bytes = Fixture.file()
        let options = DecodingOptions(pixelFormat: .rgba8Premultiplied, targetSize: PixelSize(width: 160, height: 150))
        let twoStep = try #require(try GIFCoder().makeFrameSource(data: Data(bytes), options: options) as? GIFFrameSource)
        #expect(twoStep.isWaitingForScans)
        let oneStep = try GIFFrameSource(data: Data(bytes), options: options.without(.gifTwoStep))
        #expect(!oneStep.isWaitingForScans)
        #expect(try twoStep.decodeFrame(at: 0) == oneStep.decodeFrame(at: 0))
        #expect(twoStep.isWaitingForScans)
        #expect(try (1..<4).map { try twoStep.decodeFrame(at: $0) } == (1..<4).map { try oneStep.decodeFrame(at: $0) })
    }

    /// Frame 0 smaller than the canvas, with a transparent index and "restore to previous",
    /// decoded before the scans: frame 1 is drawn over what frame 0 leaves, exactly as in
    /// one step; a first request for a later frame does the same.
    @Test func aFrameZeroDecodedBeforeTheScansKeepsItsDisposalPending() throws {
        var rng = SplitMix64(seed: 7)
        let colors: [GIFWriter.Color] = (0..<256).map { (i: Int) -> GIFWriter.Color in
            let v = UInt8(i)
            return (v, 255 &- v, v &* 5)
        }
        var w = GIFWriter(width: 400, height: 400, globalColors: colors)
        w.graphicControl(delay: 5, disposal: 3, transparentIndex: 0)
        w.image(
            x: 20, y: 30, width: 300, height: 300,
            indices: (0..<(300 * 300)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 4) })
        for k in 0..<4 {
            w.graphicControl(delay: 5, disposal: 1, transparentIndex: 0)
            w.image(
                x: 10 * k, y: 5 * k, width: 380, height: 380,
                indices: (0..<(380 * 380)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        let bytes = w.file
        #expect(bytes.count >= DecoderTuning.standard.gifTwoStepMinimumBytes)
        let expected = try Self.oneStep(bytes)
        let source = try #require(try GIFCoder().makeFrameSource(data: Data(bytes), options: .default) as? GIFFrameSource)
        #expect(source.isWaitingForScans)
        #expect(try (0..<5).map { try source.decodeFrame(at: $0) } == expected.frames)

        // A first request for a later frame restarts after frame 0, which restores the
        // clear canvas under it: frames 1 to 3 are drawn.
        let seeking = try #require(try GIFCoder().makeFrameSource(data: Data(bytes), options: .default) as? GIFFrameSource)
        #expect(try seeking.decodeFrame(at: 3) == expected.frames[3])
        #expect(seeking.decodedFrameCount == 3)
    }

    /// A bulk run over a source opened in two steps gives the one-step frames at any thread count.
    @Test func aBulkRunAfterATwoStepOpenGivesTheOneStepFrames() throws {
        let bytes = Fixture.file()
        let expected = try Self.oneStep(bytes)
        let check = BulkDecodingCheck { try GIFCoder().makeFrameSource(data: Data(bytes), options: .default) }
        #expect(try check.oneByOne().frames.map(\.pixels) == expected.frames)
        #expect(try check.violations(threads: [1, 2, 4]).isEmpty)
    }

    @Test func smallFilesOpenInOneStep() throws {
        var w = GIFWriter(width: 2, height: 2, globalColors: [(0, 0, 0), (255, 255, 255)])
        w.image(width: 2, height: 2, indices: [0, 1, 1, 0])
        let source = try GIFCoder().makeFrameSource(data: Data(w.file), options: .default)
        #expect(!Self.isWalked(source))
    }
}
