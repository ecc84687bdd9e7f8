import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// APNGEncoder on the streaming API and the premultiplied-input rule.
@Suite struct APNGStreamingEncoderTests {
    @Test func writerTakesFramesOneAtATimeAndPatchesTheFrameCount() throws {
        let size = PixelSize(width: 6, height: 4)
        let writer = try APNGEncoder().makeWriter(canvasSize: size, options: EncodingOptions(loopCount: .once))
        var canvases: [PixelBuffer] = []
        for k in 0..<5 {
            let c = APNGEncoderTests.canvas(6, 4) { x, y in x == k ? [255, 0, 0, 255] : [UInt8(y * 20), 0, 200, 255] }
            canvases.append(c)
            try writer.add(EncodingFrame(pixels: c, duration: .centiseconds(Int64(k + 1))))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-apng-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try writer.finish(to: url)
        let source = try Fixture.source(try Data(contentsOf: url))
        #expect(source.fallbackReason == nil)
        #expect(source.info.frameCount == 5)
        #expect(source.info.loopCount == .once)
        #expect(source.info.frameDurations == (1...5).map { .centiseconds(Int64($0)) })
        for i in 0..<5 { #expect(try source.decodeFrame(at: i) == canvases[i]) }
    }

    @Test func premultipliedInputIsUnpremultipliedFirst() throws {
        var straight = PixelBuffer(width: 3, height: 1)
        straight.setPixel(x: 0, y: 0, [255, 0, 255, 128])
        straight.setPixel(x: 1, y: 0, [0, 0, 0, 0])
        straight.setPixel(x: 2, y: 0, [9, 8, 7, 255])
        var premultiplied = straight
        premultiplied.premultiplyAlpha()
        let size = PixelSize(width: 3, height: 1)
        let a = try APNGEncoder().encode([EncodingFrame(pixels: straight, duration: .milliseconds(10))], canvasSize: size, options: EncodingOptions())
        let b = try APNGEncoder().encode(
            [EncodingFrame(pixels: premultiplied, duration: .milliseconds(10))], canvasSize: size, options: EncodingOptions())
        #expect(a == b)
        #expect(try Fixture.source(b).decodeFrame(at: 0) == straight)
        // The still-image encoder follows the same rule.
        #expect(try PNGEncoder().encode(premultiplied) == PNGEncoder().encode(straight))
    }
}
