import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

/// Key frames are found when indexing, and seeking decodes only from the nearest one.
@Suite struct WebPRandomAccessTests {
    /// Key frames at 0 (first), 3 (full canvas, no blend) and 6 (frame 5 covers the canvas
    /// and is disposed to background). Frame 1 covers the canvas but blends with alpha: not key.
    static func makeFile() throws -> Data {
        let size = PixelSize(width: 6, height: 6)
        func solid(_ w: Int, _ h: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) -> PixelBuffer { WebPFixture.solid(w, h, c) }
        return try WebPFixture.animation(
            canvas: size,
            frames: [
                .init(pixels: solid(6, 6, (200, 0, 0, 255))),
                .init(pixels: solid(6, 6, (0, 0, 200, 100))),
                .init(pixels: solid(2, 2, (0, 200, 0, 255)), x: 2, y: 2),
                .init(pixels: solid(6, 6, (10, 20, 30, 90)), blend: .source),
                .init(pixels: solid(4, 2, (50, 60, 70, 255)), x: 0, y: 4),
                .init(pixels: solid(6, 6, (90, 90, 0, 128)), dispose: .background),
                .init(pixels: solid(2, 4, (0, 90, 90, 200)), x: 4, y: 0),
                .init(pixels: solid(2, 2, (255, 255, 255, 60)), x: 2, y: 2),
            ])
    }

    @Test func keyFramesAreFoundWhenIndexing() throws {
        let index = try WebPIndex(data: try Self.makeFile(), limits: .default)
        let keyFrames = index.keyFrames
        #expect(index.frames.indices.map(keyFrames.isKeyFrame) == [true, false, false, true, false, false, true, false])
        #expect(index.frames.indices.map(keyFrames.restartFrame) == [0, 0, 0, 3, 3, 3, 6, 6])
        #expect(try WebPCoder().keyFrameIndices(in: try Self.makeFile()) == [0, 3, 6])
    }

    @Test func seekingDecodesFromTheNearestKeyFrameOrTheCurrentFrame() throws {
        let source = try #require(try WebPCoder().makeFrameSource(data: try Self.makeFile(), options: .default) as? WebPFrameSource)
        func cost(_ i: Int) throws -> Int {
            let before = source.decodedFrameCount
            _ = try source.decodeFrame(at: i)
            return source.decodedFrameCount - before
        }
        #expect(try cost(5) == 3)  // 3, 4, 5
        #expect(try cost(5) == 0)
        #expect(try cost(7) == 2)  // on from 5: 6, 7
        #expect(try cost(4) == 2)  // backwards: 3, 4
        #expect(try cost(6) == 1)  // key frame 6 is nearer than going on from 4
        #expect(try cost(7) == 1)  // sequential: just 7
        #expect(try cost(0) == 1)
        #expect(try cost(2) == 2)  // on from 0: 1, 2
    }

    @Test func sequentialFramesRestartOnTransparentOrReplacedCanvases() throws {
        // Random order against these frames: `WebPContractTests`.
        let source = try WebPCoder().makeFrameSource(data: try Self.makeFile(), options: .default)
        let expected = try (0..<8).map { try source.decodeFrame(at: $0) }
        #expect(expected[3].pixel(x: 0, y: 0) == [10, 20, 30, 90])
        #expect(expected[6].pixel(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(expected[6].pixel(x: 4, y: 0) == [0, 90, 90, 200])
    }

    /// 12×8: full-canvas frames, all key frames but frame 3 (a patch blending over frame 2).
    static func independentFrames() throws -> Data {
        var gradient = PixelBuffer(width: 12, height: 8)
        for y in 0..<8 { for x in 0..<12 { gradient.setPixel(x: x, y: y, [UInt8(x * 20), UInt8(y * 30), 77, 255]) } }
        var translucent = gradient
        for y in 0..<8 { for x in 0..<12 { translucent.setPixel(x: x, y: y, [UInt8(x * 20), 40, 200, UInt8(30 * x % 256)]) } }
        return try WebPFixture.animation(
            canvas: PixelSize(width: 12, height: 8),
            frames: [
                .init(pixels: gradient, lossyQuality: 70),
                .init(pixels: translucent, blend: .source),
                .init(pixels: WebPFixture.solid(12, 8, (9, 99, 199, 255))),
                .init(pixels: WebPFixture.solid(4, 4, (250, 0, 0, 255)), x: 2, y: 2),
                .init(pixels: translucent, blend: .source, lossyQuality: 80),
                .init(pixels: gradient),
            ])
    }

    @Test func independentFramesSkipTheCanvasAndStillAgreeWithLibwebp() throws {
        // Frames 0, 1, 4 and 5 are full-canvas key frames followed by another (or the end):
        // they decode straight into the caller's buffer. Frame 3 blends over frame 2, so
        // frame 2 must go through the canvas, also when reached by seeking after frame 5.
        let file = try Self.independentFrames()
        let reference = try WebPFixture.referenceFrames(file)
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        var buffer = PixelBuffer()
        for pass in 0..<2 {  // the second pass starts a new play after frame 5
            for i in 0..<6 {
                try source.decodeFrame(at: i, into: &buffer)
                #expect(buffer.bytes == reference[i], "pass \(pass) frame \(i)")
            }
        }
        for i in [3, 5, 3, 2, 0, 3, 1, 4, 3] {
            try source.decodeFrame(at: i, into: &buffer)
            #expect(buffer.bytes == reference[i], "seek to \(i)")
        }
        // The canvas path (premultiplied output) gives the same frames.
        let premultiplied = try WebPCoder().makeFrameSource(data: file, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
        for i in 0..<6 {
            let frame = try premultiplied.decodeFrame(at: i)
            var expected = PixelBuffer(width: 12, height: 8)
            expected.bytes = reference[i]
            expected.premultiplyAlpha()
            #expect(frame.bytes == expected.bytes, "premultiplied frame \(i)")
        }
        // Which path ran: frame 0 skipped the canvas, so asking again decodes it again;
        // frame 2 stays on the canvas, so asking again costs nothing.
        let probe = try #require(try WebPCoder().makeFrameSource(data: file, options: .default) as? WebPFrameSource)
        for (i, cost) in [(0, 1), (0, 1), (2, 1), (2, 0)] {
            let before = probe.decodedFrameCount
            _ = try probe.decodeFrame(at: i)
            #expect(probe.decodedFrameCount - before == cost, "frame \(i)")
        }
    }

    @Test func memoryIsOneCanvasPlusOneScratchFrame() throws {
        let source = try WebPCoder().makeFrameSource(data: try Self.makeFile(), options: .default)
        for i in 0..<8 { _ = try source.decodeFrame(at: i) }
        // 6×6 canvas + the largest blending frame (6×6): 2 × 144 bytes.
        #expect(source.retainedByteCount == 2 * 144)
    }
}
