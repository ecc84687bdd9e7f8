import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// The APNG playback rules, each pinned with a hand-built file.
@Suite struct APNGRuleTests {
    typealias Frame = APNGWriter.Frame
    let red = Fixture.red, green = Fixture.green, blue = Fixture.blue, clear = Fixture.clear

    @Test func idatIsFrameZeroWhenAnFcTLPrecedesIt() throws {
        let file = APNGWriter.animation(
            width: 4, height: 2,
            frames: [
                .solid(width: 4, height: 2, red),
                .solid(x: 1, y: 1, width: 2, height: 1, green),
            ]
        ).data
        let source = try Fixture.source(file)
        #expect(source.info.format == .apng)
        #expect(source.info.frameCount == 2)
        let frames = try Fixture.frames(file)
        #expect(frames[0].pixel(x: 1, y: 1) == red)
        #expect(frames[1].pixel(x: 1, y: 1) == green)
        #expect(frames[1].pixel(x: 0, y: 0) == red)
    }

    @Test func idatWithoutFcTLIsNotPartOfTheAnimation() throws {
        let file = APNGWriter.animation(
            width: 4, height: 2,
            frames: [
                .solid(width: 2, height: 1, red),
                .solid(x: 2, y: 1, width: 2, height: 1, green),
            ], defaultImage: Fixture.fill(4, 2, blue)
        ).data
        let source = try Fixture.source(file)
        #expect(source.info.frameCount == 2)
        #expect(source.info.canvasSize == PixelSize(width: 4, height: 2))
        let f0 = try source.decodeFrame(at: 0)
        #expect(f0.size == PixelSize(width: 4, height: 2))
        #expect(f0.pixel(x: 0, y: 0) == red)
        #expect(f0.pixel(x: 3, y: 1) == clear)  // not the blue default image
    }

    @Test func canvasIsTransparentAtTheStartOfEveryPlay() throws {
        let file = APNGWriter.animation(
            width: 4, height: 2,
            frames: [
                .solid(width: 2, height: 1, red),
                .solid(x: 2, y: 1, width: 2, height: 1, green),
            ], defaultImage: Fixture.fill(4, 2, blue)
        ).data
        let source = try Fixture.source(file)
        let first = try source.decodeFrame(at: 0)
        let second = try source.decodeFrame(at: 1)
        #expect(second.pixel(x: 0, y: 0) == red)
        #expect(second.pixel(x: 3, y: 1) == green)
        #expect(second.pixel(x: 3, y: 0) == clear)
        let again = try source.decodeFrame(at: 0)  // the second play
        #expect(again == first)
        #expect(again.pixel(x: 3, y: 1) == clear)
    }

    /// Frame 0 fills the canvas red; frame 1 paints (0,0) green with `dispose`; frame 2
    /// touches only (3,0). What (0,0) shows in frame 2 is frame 1's disposal.
    private func pixelAfterDisposal(_ dispose: UInt8) throws -> [UInt8] {
        let file = APNGWriter.animation(
            width: 4, height: 1,
            frames: [
                .solid(width: 4, height: 1, red),
                .solid(width: 1, height: 1, green, disposeOp: dispose),
                .solid(x: 3, width: 1, height: 1, blue),
            ]
        ).data
        let frames = try Fixture.frames(file)
        #expect(frames[1].pixel(x: 0, y: 0) == green)
        #expect(frames[2].pixel(x: 3, y: 0) == blue)
        return frames[2].pixel(x: 0, y: 0)
    }

    @Test func disposeNoneKeepsTheFrame() throws {
        #expect(try pixelAfterDisposal(0) == green)
    }

    @Test func disposeBackgroundClearsTheRectangleToTransparent() throws {
        #expect(try pixelAfterDisposal(1) == clear)
    }

    @Test func disposePreviousRestoresTheCanvas() throws {
        #expect(try pixelAfterDisposal(2) == red)
    }

    @Test func disposePreviousOnTheFirstFrameMeansBackground() throws {
        let file = APNGWriter.animation(
            width: 2, height: 1,
            frames: [
                .solid(width: 2, height: 1, red, disposeOp: 2),
                .solid(width: 1, height: 1, green, blendOp: 1),
            ]
        ).data
        let frames = try Fixture.frames(file)
        #expect(frames[0].pixel(x: 1, y: 0) == red)
        #expect(frames[1].pixel(x: 0, y: 0) == green)
        #expect(frames[1].pixel(x: 1, y: 0) == clear)
    }

    @Test func blendSourceReplacesAlphaToo() throws {
        let file = APNGWriter.animation(
            width: 2, height: 1,
            frames: [
                .solid(width: 2, height: 1, red),
                .solid(width: 1, height: 1, [0, 0, 255, 0], blendOp: 0),
            ]
        ).data
        let frames = try Fixture.frames(file)
        #expect(frames[1].pixel(x: 0, y: 0) == [0, 0, 255, 0])
        #expect(frames[1].pixel(x: 1, y: 0) == red)
    }

    @Test func blendOverCompositesStraightAlpha() throws {
        let file = APNGWriter.animation(
            width: 3, height: 1,
            frames: [
                .solid(width: 3, height: 1, red),
                Frame(width: 3, height: 1, rgba: [0, 0, 255, 128, 0, 0, 255, 0, 0, 255, 0, 255], blendOp: 1),
            ]
        ).data
        let frames = try Fixture.frames(file)
        // 50% blue over opaque red: (255·127/255, 0, 255·128/255) rounded down by the core blend.
        #expect(frames[1].pixel(x: 0, y: 0) == [127, 0, 128, 255])
        #expect(frames[1].pixel(x: 1, y: 0) == red)  // a transparent source pixel leaves the canvas
        #expect(frames[1].pixel(x: 2, y: 0) == green)  // an opaque one replaces it
    }

    @Test func delaysAreExactFractionsAndDenominatorZeroMeansHundredths() throws {
        let file = APNGWriter.animation(
            width: 1, height: 1,
            frames: [
                .solid(width: 1, height: 1, red, delayNumerator: 50, delayDenominator: 0),
                .solid(width: 1, height: 1, red, delayNumerator: 1, delayDenominator: 3),
                .solid(width: 1, height: 1, red, delayNumerator: 0, delayDenominator: 100),
                .solid(width: 1, height: 1, red, delayNumerator: 65_535, delayDenominator: 65_535),
            ]
        ).data
        let info = try Fixture.source(file).info
        #expect(info.frameDurations == [.milliseconds(500), FrameDuration(numerator: 1, denominator: 3), .zero, .seconds(1)])
        #expect(
            info.displayDurations() == [
                .milliseconds(500), FrameDuration(numerator: 1, denominator: 3),
                .milliseconds(100), .seconds(1),
            ])
    }

    @Test(arguments: [(UInt32(0), LoopCount.infinite), (1, .plays(1)), (3, .plays(3))])
    func numPlaysIsTotalPlays(stored: UInt32, expected: LoopCount) throws {
        let file = APNGWriter.animation(
            width: 1, height: 1,
            frames: [
                .solid(width: 1, height: 1, red), .solid(width: 1, height: 1, green),
            ], plays: stored
        ).data
        let info = try Fixture.source(file).info
        #expect(info.loopCount == expected)
        #expect(info.storedLoopValue == Int(stored))
    }

    @Test func stillPNGIsOneFrameOfFormatPNG() throws {
        let rgba = red + green + blue + [10, 20, 30, 40]
        let file = APNGWriter.stillPNG(width: 2, height: 2, rgba: rgba)
        let source = try Fixture.source(file)
        #expect(source.info.format == .png)
        #expect(source.info.frameCount == 1)
        #expect(source.info.loopCount == .once)
        #expect(source.info.storedLoopValue == nil)
        #expect(source.info.truncation == nil)
        #expect(try source.decodeFrame(at: 0).bytes == rgba)
        #expect(throws: AnimatedImageError.frameOutOfRange(index: 1, frameCount: 1)) { try source.decodeFrame(at: 1) }
    }

    @Test func downsamplesToTheTargetSize() throws {
        let rgba = red + red + green + green + red + red + green + green
        let file = APNGWriter.stillPNG(width: 4, height: 2, rgba: rgba)
        let options = DecodingOptions(targetSize: PixelSize(width: 2, height: 2))
        let frame = try Fixture.source(file, options: options).decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 2, height: 1))
        #expect(frame.pixel(x: 0, y: 0) == red)
        #expect(frame.pixel(x: 1, y: 0) == green)
    }

    @Test func premultipliedOutputWhenAsked() throws {
        let file = APNGWriter.stillPNG(width: 1, height: 1, rgba: [255, 0, 0, 128])
        let frame = try Fixture.source(file, options: DecodingOptions(pixelFormat: .rgba8Premultiplied)).decodeFrame(at: 0)
        #expect(frame.format == .rgba8Premultiplied)
        #expect(frame.pixel(x: 0, y: 0) == [128, 0, 0, 128])
    }

    @Test func registryRecognisesAPNGAndPNGFromContent() throws {
        let registry = CoderRegistry(builtIn: [APNGCoder()])
        let anim = APNGWriter.animation(
            width: 1, height: 1,
            frames: [
                .solid(width: 1, height: 1, red), .solid(width: 1, height: 1, green),
            ]
        ).data
        let still = APNGWriter.stillPNG(width: 1, height: 1, rgba: red)
        #expect(registry.format(of: anim) == .apng)
        #expect(registry.format(of: still) == .png)
        #expect(try registry.isAnimated(anim))
        #expect(try !registry.isAnimated(still))
        let source = try registry.makeFrameSource(data: anim)
        #expect(try source.decodeFrame(at: 1).pixel(x: 0, y: 0) == green)
    }

    @Test func frameDataSplitAcrossFdATChunksAndEmptyFdATs() throws {
        let z = APNGWriter.zlibStored(APNGWriter.scanlines(rgba: Fixture.fill(2, 2, green), width: 2, height: 2))
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 2, height: 2))
        w.append("acTL", APNGWriter.actl(frameCount: 1, plays: 0))
        w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rgba: Fixture.fill(2, 2, blue), width: 2, height: 2)))
        w.append("fcTL", APNGWriter.fctl(sequence: 0, width: 2, height: 2))
        w.append("fdAT", APNGWriter.fdat(sequence: 1, Array(z[..<5])))
        w.append("fdAT", APNGWriter.fdat(sequence: 2, []))
        w.append("fdAT", APNGWriter.fdat(sequence: 3, Array(z[5...])))
        w.append("IEND", [])
        let frames = try Fixture.frames(w.data)
        #expect(frames.count == 1)
        #expect(frames[0].bytes == Fixture.fill(2, 2, green))
    }

    @Test func retainedBytesCoverTheCanvasOnceAFrameDrawsOnIt() throws {
        // Whole opaque frames decode straight into the caller's buffer: no canvas.
        let whole = APNGWriter.animation(
            width: 8, height: 8,
            frames: [
                .solid(width: 8, height: 8, red), .solid(width: 8, height: 8, green),
            ]
        ).data
        let direct = try Fixture.source(whole)
        _ = try direct.decodeFrame(at: 1)
        #expect(direct.retainedByteCount < 8 * 8 * 4)
        // A frame blended over part of frame 0 is drawn on the canvas.
        let blended = APNGWriter.animation(
            width: 8, height: 8,
            frames: [
                .solid(width: 8, height: 8, red), .solid(x: 2, y: 2, width: 4, height: 4, green, blendOp: 1),
            ]
        ).data
        let source = try Fixture.source(blended)
        #expect(try source.decodeFrame(at: 1).pixel(x: 3, y: 3) == green)
        #expect(source.retainedByteCount >= 8 * 8 * 4)
    }
}
