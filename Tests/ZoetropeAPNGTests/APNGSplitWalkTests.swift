import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// A big PNG's open draws frame 0 on one core while another walks the rest of the chunks
/// (`APNGFirstFrameDraw`). Whatever the file, the info, the frames and the errors are those
/// of the walk in one piece, and frame 0 is used only when the whole file still draws it.
@Suite struct APNGSplitWalkTests {
    static let side = 800

    /// Noise with every alpha level: blending and premultiplying show any difference.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 29) }
    }

    /// Three frames, stored uncompressed (7.7 MB): frame 0 fills the canvas and is disposed
    /// to BACKGROUND, frame 1 is blended OVER in a corner and disposed to PREVIOUS, frame 2
    /// is blended OVER elsewhere. With `defaultImage`, frame 0 is fdAT data after a hidden
    /// IDAT image.
    static func file(defaultImage: Bool = false) -> APNGWriter {
        let s = side
        let frames = [
            APNGWriter.Frame(width: s, height: s, rgba: noise(s * s * 4, seed: 1), disposeOp: 1),
            APNGWriter.Frame(
                x: 40, y: 60, width: 700, height: 600, rgba: noise(700 * 600 * 4, seed: 2),
                disposeOp: 2, blendOp: 1),
            APNGWriter.Frame(x: 100, y: 10, width: 650, height: 780, rgba: noise(650 * 780 * 4, seed: 3), blendOp: 1),
        ]
        return APNGWriter.animation(
            width: s, height: s, frames: frames, plays: 3,
            defaultImage: defaultImage ? noise(s * s * 4, seed: 4) : nil)
    }

    /// The info and every frame through the walk in one piece.
    static func oneStep(_ data: Data, options: DecodingOptions = .default) throws -> (info: AnimationInfo, frames: [PixelBuffer]) {
        let source = try APNGFrameSource(data: data, options: options.without(.firstFrameBesideWalk))
        #expect(!source.drewFirstFrameAtOpen)
        return (source.info, try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) })
    }

    static let enabled = ProcessorBudget.availableCores > 1

    @Test(.enabled(if: enabled, "the walk splits only with a second core"), arguments: [false, true])
    func frameZeroDrawnDuringTheOpenIsTheOneStepFrame(defaultImage: Bool) throws {
        let data = Self.file(defaultImage: defaultImage).data
        #expect(data.count >= DecoderTuning.standard.apngBesideWalkMinimumBytes)
        let expected = try Self.oneStep(data)
        #expect(expected.info.frameCount == 3 && expected.info.loopCount == .plays(3))
        let source = try Fixture.source(data)
        #expect(source.drewFirstFrameAtOpen)
        #expect(source.info == expected.info)
        // The open holds the canvas it drew frame 0 on, once.
        let canvasBytes = Self.side * Self.side * 4
        #expect(source.retainedByteCount >= canvasBytes && source.retainedByteCount < 2 * canvasBytes)
        #expect(try source.decodeFrame(at: 0) == expected.frames[0])
        #expect(source.decodedFrameCount == 1)
        // Frame 1 starts on a clear canvas (frame 0 covers it and is disposed to BACKGROUND),
        // so the canvas is freed once frame 0 is copied out of it.
        #expect(source.retainedByteCount < canvasBytes / 2, "\(source.retainedByteCount) bytes")
        #expect(try source.decodeFrame(at: 1) == expected.frames[1])
        #expect(try source.decodeFrame(at: 2) == expected.frames[2])
        #expect(source.decodedFrameCount == 3)

        // A first request for a later frame draws one frame, as from a one-piece open
        // (frame 2 follows a canvas left clear), after frame 0 counted at open.
        let seeking = try Fixture.source(data)
        #expect(try seeking.decodeFrame(at: 2) == expected.frames[2])
        #expect(seeking.decodedFrameCount == 2)
        let onePiece = try APNGFrameSource(data: data, options: DecodingOptions.default.without(.firstFrameBesideWalk))
        _ = try onePiece.decodeFrame(at: 2)
        #expect(onePiece.decodedFrameCount == 1)

        // Another output format is converted from the canvas drawn at open.
        let options = DecodingOptions(pixelFormat: .rgba8Premultiplied, targetSize: PixelSize(width: 300, height: 300))
        let scaled = try Fixture.source(data, options: options)
        #expect(scaled.drewFirstFrameAtOpen)
        #expect(try scaled.decodeFrame(at: 0) == Self.oneStep(data, options: options).frames[0])
    }

    /// A sequence number broken after frame 0 turns the file into its still image (here the
    /// hidden IDAT image): the frame 0 drawn at open is not the file's, so it is not used.
    @Test func aBreakAfterFrameZeroDropsWhatTheOpenDrew() throws {
        var writer = Self.file(defaultImage: true)
        let fcTL2 = try #require(writer.chunks.indices.filter { writer.chunks[$0].type == "fcTL" }.last)
        writer.chunks[fcTL2].payload = APNGWriter.fctl(sequence: 9, width: 650, height: 780, x: 100, y: 10)
        let data = writer.data
        let expected = try Self.oneStep(data)
        #expect(expected.info.format == .png && expected.info.frameCount == 1)
        let source = try Fixture.source(data)
        #expect(!source.drewFirstFrameAtOpen)
        #expect(source.fallbackReason == "fcTL sequence number 9, expected 4")
        #expect(source.info == expected.info)
        #expect(try source.decodeFrame(at: 0) == expected.frames[0])
    }

    /// A file cut inside frame 2's data keeps the frames before it, frame 0 from the open.
    @Test(.enabled(if: enabled, "the walk splits only with a second core"))
    func aFileCutAfterFrameZeroKeepsTheDrawing() throws {
        let whole = Self.file().data
        let data = whole.prefix(whole.count - 100_000)
        let expected = try Self.oneStep(data)
        #expect(expected.info.frameCount == 2)
        #expect(expected.info.truncation != nil)
        let source = try Fixture.source(data)
        #expect(source.drewFirstFrameAtOpen)
        #expect(source.info == expected.info)
        #expect(try (0..<2).map { try source.decodeFrame(at: $0) } == expected.frames)
    }

    /// A limit the rest of the walk passes fails the open with the one-piece walk's error.
    @Test func aLimitPassedAfterFrameZeroFailsTheOpenAsBefore() throws {
        var options = DecodingOptions.default
        options.limits.maxFrameCount = 2
        let data = Self.file().data
        let expected = #expect(throws: AnimatedImageError.self) { try Self.oneStep(data, options: options) }
        let error = #expect(throws: AnimatedImageError.self) { try Fixture.source(data, options: options) }
        #expect(error == expected)
        #expect(error.map { "\($0)" }?.contains("frame") == true)
    }

    /// A bulk run after a split open delivers the canvas drawn at open for frame 0 (no
    /// payload is decoded for it) and the one-piece frames after it, at any thread count.
    @Test func aBulkRunAfterASplitOpenGivesTheOnePieceFrames() throws {
        let data = Self.file().data
        let expected = try Self.oneStep(data)
        let check = BulkDecodingCheck { try APNGCoder().makeFrameSource(data: data, options: .default) }
        #expect(try check.oneByOne().frames.map(\.pixels) == expected.frames)
        #expect(try check.violations(threads: [1, 2, 4]).isEmpty)
    }

    @Test func smallFilesAndStillImagesAreWalkedInOnePiece() throws {
        let small = APNGWriter.animation(width: 4, height: 4, frames: [.solid(width: 4, height: 4, Fixture.red)]).data
        #expect(try !Fixture.source(small).drewFirstFrameAtOpen)
        // A still image's data ends at IEND: nothing is left to walk beside the draw.
        let still = APNGWriter.stillPNG(width: 1100, height: 1000, rgba: Self.noise(1100 * 1000 * 4, seed: 5))
        #expect(still.count >= DecoderTuning.standard.apngBesideWalkMinimumBytes)
        #expect(try !Fixture.source(still).drewFirstFrameAtOpen)
    }
}
