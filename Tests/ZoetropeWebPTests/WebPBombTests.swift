import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

/// Heavy but legal WebP files: thousands of 1×1 frames on an 8192² canvas ask for about
/// 2 × 10^11 pixels per play. `Limits.maxPixelsPerPlay` refuses them while indexing; with
/// the limit lifted, opening allocates no canvas until a frame is decoded.
@Suite struct WebPBombTests {
    static let side = 8192

    /// An animated WebP of `count` 1×1 half-transparent lossless frames on a `side`² canvas,
    /// assembled chunk by chunk around one frame bitstream made by libwebp.
    static func tinyFramesOnAHugeCanvas(count: Int) throws -> Data {
        let still = try WebPFixture.still(WebPFixture.solid(1, 1, (200, 10, 30, 128)))
        let bitstream = still[12...]  // the VP8L chunk, header included
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
            Array(tag.utf8) + le(payload.count, 4) + payload + (payload.count & 1 == 1 ? [0] : [])
        }
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x12, 0, 0, 0] + le(side - 1, 3) + le(side - 1, 3))
        body += chunk("ANIM", le(0, 4) + le(0, 2))
        for i in 0..<count {
            let x = (2 * i) % side, y = (2 * ((2 * i) / side)) % side
            body += chunk("ANMF", le(x / 2, 3) + le(y / 2, 3) + le(0, 3) + le(0, 3) + le(20, 3) + [0] + Array(bitstream))
        }
        return Data(Array("RIFF".utf8) + le(body.count, 4) + body)
    }

    @Test func thousandsOfTinyFramesOnAnEightKCanvasAreRefusedByPixelsPerPlay() throws {
        let data = try Self.tinyFramesOnAHugeCanvas(count: 3000)
        #expect(data.count < 160_000)
        #expect(
            throws: AnimatedImageError.limitExceeded(
                format: .webp, limit: .pixelsPerPlay,
                requested: 3000 * Self.side * Self.side, allowed: 1 << 30)
        ) {
            try WebPCoder().makeFrameSource(data: data, options: .default)
        }
    }

    @Test func openingAllocatesNoCanvasUntilAFrameIsDecoded() throws {
        let data = try Self.tinyFramesOnAHugeCanvas(count: 40)
        let options = DecodingOptions(limits: Limits(maxPixelsPerPlay: .max))
        let source = try WebPCoder().makeFrameSource(data: data, options: options)
        #expect(source.info.canvasSize == PixelSize(width: Self.side, height: Self.side))
        #expect(source.info.frameCount == 40)
        #expect(source.retainedByteCount == 0, "info alone holds no canvas")
        var buffer = PixelBuffer()
        try source.decodeFrame(at: 0, into: &buffer)
        // The canvas holds where the 40 frames draw, (0, 0) to (78, 0), not the screen.
        #expect(source.retainedByteCount == 79 * 4)
        try source.decodeFrame(at: 1, into: &buffer)
        #expect(buffer.size == PixelSize(width: Self.side, height: Self.side))
        #expect(buffer.pixel(x: 0, y: 0) == [200, 10, 30, 128] && buffer.pixel(x: 2, y: 0) == [200, 10, 30, 128])
        #expect(buffer.pixel(x: 4, y: 0) == [0, 0, 0, 0] && buffer.pixel(x: 8191, y: 8191) == [0, 0, 0, 0])
        // The blending frame's scratch raster is its own 1×1.
        #expect(source.retainedByteCount == 79 * 4 + 4)
        // At a target size nothing of the screen's size is held or made.
        let small = try WebPCoder().makeFrameSource(
            data: data, options: DecodingOptions(targetSize: PixelSize(width: 256, height: 256), limits: Limits(maxPixelsPerPlay: .max)))
        let frame = try small.decodeFrame(at: 39)
        #expect(frame.size == PixelSize(width: 256, height: 256))
        // Output pixel (0, 0) averages a 32×32 box holding 16 of the half-transparent pixels.
        #expect(frame.pixel(x: 0, y: 0) == [200, 10, 30, 2] && frame.pixel(x: 1, y: 0) == [200, 10, 30, 2])
        #expect(frame.pixel(x: 3, y: 0) == [0, 0, 0, 0])
        #expect(small.retainedByteCount == 79 * 4 + 4)
    }
}
