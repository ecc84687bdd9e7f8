import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding

@testable import ZoetropeWebP

@Suite struct WebPEncoderTests {
    /// Three distinct canvases with translucent and transparent areas, moving shapes, so
    /// the encoder picks sub-rectangles and blend/dispose modes on its own.
    static func canvases() -> [PixelBuffer] {
        (0..<4).map { k in
            var b = PixelBuffer(width: 24, height: 16)
            for y in 0..<16 {
                for x in 0..<24 {
                    let inside = x >= 2 + k * 4 && x < 10 + k * 4 && y >= 3 && y < 11
                    b.setPixel(
                        x: x, y: y,
                        inside
                            ? [UInt8(60 * k), 200, UInt8(x * 10), UInt8(100 + 40 * k)]
                            : (y < 2 ? [0, 0, 0, 0] : [30, 40, 50, 255]))
                }
            }
            return b
        }
    }

    @Test func losslessRoundTripIsExact() throws {
        let canvases = Self.canvases()
        let durations: [FrameDuration] = [.milliseconds(40), .milliseconds(100), .centiseconds(7), FrameDuration(numerator: 1, denominator: 3)]
        let frames = zip(canvases, durations).map { EncodingFrame(pixels: $0, duration: $1) }
        let file = try WebPEncoder().encode(
            frames, canvasSize: PixelSize(width: 24, height: 16),
            options: EncodingOptions(loopCount: .plays(2)))
        #expect(WebPCoder().sniff(file) == .match(.webp, .animated))
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.canvasSize == PixelSize(width: 24, height: 16))
        #expect(source.info.loopCount == .plays(2))
        #expect(source.info.storedLoopValue == 2)
        // Rounded to whole milliseconds: 70 ms, and 1/3 s → 333 ms.
        #expect(source.info.frameDurations == [.milliseconds(40), .milliseconds(100), .milliseconds(70), .milliseconds(333)])
        for i in 0..<4 {
            #expect(try source.decodeFrame(at: i) == canvases[i], "frame \(i)")
        }
        // The encoder chose sub-rectangles, so compositing was really exercised.
        let index = try WebPIndex(data: file, limits: .default)
        #expect(index.frames.contains { $0.rect != PixelRect(x: 0, y: 0, width: 24, height: 16) })
    }

    @Test func lossyEncodingDecodesLikeLibwebp() throws {
        let frames = Self.canvases().map { EncodingFrame(pixels: $0, duration: .milliseconds(50)) }
        let file = try WebPEncoder().encode(
            frames, canvasSize: PixelSize(width: 24, height: 16),
            options: EncodingOptions(loopCount: .infinite, quality: 60))
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.loopCount == .infinite)
        let reference = try WebPFixture.referenceFrames(file)
        #expect(reference.count == source.info.frameCount)
        for i in reference.indices {
            let ours = try source.decodeFrame(at: i)
            #expect(ours.maxChannelDifference(from: reference[i]) <= 1, "frame \(i)")  // libwebp's blend rounds ×256
        }
    }

    @Test func identicalFramesMergeAndASingleFrameIsAStill() throws {
        let a = Self.canvases()[0], b = Self.canvases()[1]
        let merged = try WebPEncoder().encode(
            [
                EncodingFrame(pixels: a, duration: .milliseconds(30)), EncodingFrame(pixels: a, duration: .milliseconds(40)),
                EncodingFrame(pixels: b, duration: .milliseconds(50)),
            ], canvasSize: a.size, options: EncodingOptions())
        let info = try WebPCoder().makeFrameSource(data: merged, options: .default).info
        #expect(info.frameDurations == [.milliseconds(70), .milliseconds(50)])

        let still = try WebPEncoder().encode(
            [EncodingFrame(pixels: a, duration: .milliseconds(30))],
            canvasSize: a.size, options: EncodingOptions())
        #expect(WebPCoder().sniff(still) == .match(.webp, .still))
        let source = try WebPCoder().makeFrameSource(data: still, options: .default)
        #expect(source.info.frameDurations == [.zero])
        #expect(try source.decodeFrame(at: 0) == a)
    }

    @Test func rejectsWhatWebPCannotStore() throws {
        let frame = EncodingFrame(pixels: PixelBuffer(width: 2, height: 2), duration: .milliseconds(10))
        let size = PixelSize(width: 2, height: 2)
        #expect(throws: AnimatedImageError.invalidArgument("WebPEncoder needs at least one frame")) {
            try WebPEncoder().encode([], canvasSize: size, options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument("frame 0 is 2×2, the canvas is 3×2")) {
            try WebPEncoder().encode([frame], canvasSize: PixelSize(width: 3, height: 2), options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument("WebP stores 1…65535 plays (or forever), got 0")) {
            try WebPEncoder().encode([frame], canvasSize: size, options: EncodingOptions(loopCount: .plays(0)))
        }
        #expect(throws: AnimatedImageError.invalidArgument("quality is 0…100, got 101")) {
            try WebPEncoder().encode([frame], canvasSize: size, options: EncodingOptions(quality: 101))
        }
    }
}
