import CWebP
import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

@Suite struct WebPStillAndInfoTests {
    static func checker(_ w: Int, _ h: Int, alpha: UInt8 = 255) -> PixelBuffer {
        var b = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b.setPixel(x: x, y: y, [UInt8(x * 20), UInt8(y * 30), (x + y) % 2 == 0 ? 255 : 0, alpha]) } }
        return b
    }

    @Test func losslessStillIsOneExactFrame() throws {
        let pixels = Self.checker(7, 5, alpha: 200)
        let file = try WebPFixture.still(pixels)
        #expect(WebPCoder().sniff(file) == .match(.webp, .still))
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.format == .webp)
        #expect(source.info.canvasSize == PixelSize(width: 7, height: 5))
        #expect(source.info.frameDurations == [.zero])
        #expect(source.info.loopCount == .once)
        #expect(source.info.storedLoopValue == nil)
        #expect(source.info.truncation == nil)
        #expect(try source.decodeFrame(at: 0) == pixels)
        #expect(throws: AnimatedImageError.frameOutOfRange(index: 1, frameCount: 1)) { try source.decodeFrame(at: 1) }
        #expect(try CoderRegistry(builtIn: [WebPCoder()]).isAnimated(file) == false)
    }

    @Test(arguments: [false, true])
    func lossyStillMatchesLibwebp(withAlpha: Bool) throws {
        let pixels = Self.checker(9, 6, alpha: withAlpha ? 77 : 255)
        let file = try WebPFixture.still(pixels, lossyQuality: 60)
        // VP8X + ALPH + VP8 with alpha, plain VP8 without.
        #expect(WebPFixture.chunkOffsets(file, withAlpha ? "VP8X" : "VP8 ").count == 1)
        var w: Int32 = 0, h: Int32 = 0
        let expected = try file.withUnsafeBytes { raw -> [UInt8] in
            guard let p = WebPDecodeRGBA(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &w, &h) else {
                throw WebPFixture.Failure(description: "libwebp could not decode its own file")
            }
            defer { WebPFree(p) }
            return Array(UnsafeBufferPointer(start: p, count: Int(w * h * 4)))
        }
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.hasAlpha == withAlpha)
        #expect(try source.decodeFrame(at: 0).bytes == expected)
    }

    @Test func loopCountAndRawDurations() throws {
        let frame = WebPFixture.solid(2, 2, (1, 2, 3, 255))
        let other = WebPFixture.solid(2, 2, (9, 8, 7, 255))
        for (stored, plays) in [(0, LoopCount.infinite), (1, .plays(1)), (3, .plays(3)), (65535, .plays(65535))] {
            let file = try WebPFixture.animation(
                canvas: PixelSize(width: 2, height: 2),
                frames: [
                    .init(pixels: frame, durationMs: 0), .init(pixels: other, durationMs: 7),
                    .init(pixels: frame, durationMs: 70), .init(pixels: other, durationMs: 0xFF_FFFF),
                ], loopCount: stored)
            let info = try WebPCoder().makeFrameSource(data: file, options: .default).info
            #expect(info.loopCount == plays)
            #expect(info.storedLoopValue == stored)
            #expect(info.frameDurations == [.zero, .milliseconds(7), .milliseconds(70), .milliseconds(0xFF_FFFF)])
            #expect(info.displayDurations() == [.milliseconds(100), .milliseconds(100), .milliseconds(70), .milliseconds(0xFF_FFFF)])
        }
    }

    @Test func decodesFromADataSliceAtAnOddOffset() throws {
        let pixels = Self.checker(5, 3)
        let padded = Data([1, 2, 3]) + (try WebPFixture.still(pixels))
        let slice = padded[3...]
        #expect(try WebPCoder().makeFrameSource(data: slice, options: .default).decodeFrame(at: 0) == pixels)
    }

    @Test func animationWithoutAnimChunkIsRejected() throws {
        // The container spec requires ANIM before the frames; libwebp's demuxer (and so
        // Chromium) refuses the file, and the error says why.
        let file = try WebPFixture.animation(
            canvas: PixelSize(width: 2, height: 2),
            frames: [
                .init(pixels: WebPFixture.solid(2, 2, (1, 2, 3, 255))), .init(pixels: WebPFixture.solid(2, 2, (3, 2, 1, 255))),
            ], loopCount: 0)
        let anim = try #require(WebPFixture.chunkOffsets(file, "ANIM").first)
        var stripped = file
        stripped.removeSubrange(anim..<anim + 14)
        let riff = UInt32(stripped.count - 8)
        stripped.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), UInt8(riff >> 24)])
        #expect(
            throws: AnimatedImageError.invalidData(
                format: .webp, reason: "an animation (ANMF frames) without the ANIM chunk that must precede them")
        ) {
            try WebPCoder().makeFrameSource(data: stripped, options: .default)
        }
    }

    /// The ICCP/EXIF/XMP chunks are reported in `color` and `metadata` and change nothing else.
    @Test func metadataChunksChangeNothingElse() throws {
        let frames: [WebPFixture.Frame] = [
            .init(pixels: Self.checker(6, 6, alpha: 128)),
            .init(pixels: WebPFixture.solid(2, 4, (0, 0, 255, 255)), x: 2, y: 2, lossyQuality: 75),
        ]
        let plain = try WebPFixture.animation(canvas: PixelSize(width: 6, height: 6), frames: frames)
        let tagged = try WebPFixture.animation(canvas: PixelSize(width: 6, height: 6), frames: frames, metadata: true)
        for tag in ["ICCP", "EXIF", "XMP "] { #expect(WebPFixture.chunkOffsets(tagged, tag).count == 1, "\(tag)") }
        let a = try WebPCoder().makeFrameSource(data: plain, options: DecodingOptions(colorOutput: .stored))
        let b = try WebPCoder().makeFrameSource(data: tagged, options: DecodingOptions(colorOutput: .stored))
        var withoutThem = b.info
        #expect(withoutThem.color.iccProfile == ICCProfile(data: Array("not really a profile".utf8)))
        #expect(withoutThem.metadata == EmbeddedMetadata(exif: Array("Exif\0\0 fake".utf8), xmp: Array("<x:xmpmeta/>".utf8)))
        withoutThem.color = .unspecified
        withoutThem.metadata = .none
        #expect(a.info == withoutThem)
        for i in 0..<2 { #expect(try a.decodeFrame(at: i) == b.decodeFrame(at: i)) }
    }

    @Test func downsamplesToTheTargetSizeAndPremultiplies() throws {
        var quads = WebPFixture.solid(8, 8, (255, 0, 0, 255))
        quads.fill(PixelRect(x: 4, y: 0, width: 4, height: 4), with: (0, 0, 255, 255))
        quads.fill(PixelRect(x: 0, y: 4, width: 8, height: 4), with: (0, 255, 0, 64))
        let file = try WebPFixture.still(quads)
        let options = DecodingOptions(pixelFormat: .rgba8Premultiplied, targetSize: PixelSize(width: 2, height: 4))
        let source = try WebPCoder().makeFrameSource(data: file, options: options)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 2, height: 2))
        #expect(frame.format == .rgba8Premultiplied)
        #expect(frame.pixel(x: 0, y: 0) == [255, 0, 0, 255])
        #expect(frame.pixel(x: 1, y: 0) == [0, 0, 255, 255])
        #expect(frame.pixel(x: 0, y: 1) == [0, 64, 0, 64])
    }
}
