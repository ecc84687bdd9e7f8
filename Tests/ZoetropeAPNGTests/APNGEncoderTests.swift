import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// APNGEncoder output decodes back to the same canvases, durations and plays.
@Suite struct APNGEncoderTests {
    static func canvas(_ w: Int, _ h: Int, _ paint: (Int, Int) -> [UInt8]) -> PixelBuffer {
        var b = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b.setPixel(x: x, y: y, paint(x, y)) } }
        return b
    }

    @Test(arguments: [false, true])
    func roundTripIsExact(fast: Bool) throws {
        let a = APNGEncoderTests.canvas(5, 3) { x, y in [UInt8(x * 40), UInt8(y * 80), 7, 255] }
        var b = a
        b.setPixel(x: 3, y: 1, [1, 2, 3, 128])  // a small change
        var c = b
        c.setPixel(x: 0, y: 2, [0, 0, 0, 0])  // transparency appears
        let d = c  // no change at all
        let frames = [a, b, c, d].enumerated().map {
            EncodingFrame(pixels: $1, duration: .milliseconds(Int64(10 * ($0 + 1))))
        }
        let data = try APNGEncoder(fast: fast).encode(
            frames, canvasSize: PixelSize(width: 5, height: 3),
            options: EncodingOptions(loopCount: .plays(2)))
        let source = try Fixture.source(data)
        #expect(source.fallbackReason == nil)
        #expect(source.info.format == .apng)
        #expect(source.info.loopCount == .plays(2))
        #expect(source.info.frameDurations == [.milliseconds(10), .milliseconds(20), .milliseconds(30), .milliseconds(40)])
        for (i, f) in frames.enumerated() {
            #expect(try source.decodeFrame(at: i) == f.pixels, "frame \(i)")
        }
    }

    @Test func laterFramesStoreOnlyTheChangedRectangle() throws {
        let a = APNGEncoderTests.canvas(8, 8) { _, _ in Fixture.red }
        var b = a
        b.setPixel(x: 2, y: 3, Fixture.green)
        b.setPixel(x: 5, y: 4, Fixture.blue)
        let data = try APNGEncoder().encode(
            [
                EncodingFrame(pixels: a, duration: .milliseconds(100)),
                EncodingFrame(pixels: b, duration: .milliseconds(100)),
            ],
            canvasSize: PixelSize(width: 8, height: 8), options: EncodingOptions())
        let index = try data.withUnsafeBytes { try APNGChunkWalker.index($0, limits: .default) }
        #expect(index.frames.map(\.rect) == [PixelRect(x: 0, y: 0, width: 8, height: 8), PixelRect(x: 2, y: 3, width: 4, height: 2)])
        #expect(index.frames[0].usesIDAT)
        #expect(index.numPlays == 0)
    }

    @Test func durationsThatDoNotFitSixteenBitsAreRounded() {
        #expect(APNGEncoder.delay(FrameDuration(numerator: 1, denominator: 3)) == (1, 3))
        #expect(APNGEncoder.delay(.milliseconds(1500)) == (3, 2))
        #expect(APNGEncoder.delay(FrameDuration(numerator: 1, denominator: 70_000)) == (0, 1000))
        #expect(APNGEncoder.delay(.seconds(100_000)) == (65_535, 1))
        #expect(APNGEncoder.delay(FrameDuration(numerator: 100_001, denominator: 100_000)) == (1000, 1000))
    }

    @Test func refusesFramesOfTheWrongSize() {
        let frame = EncodingFrame(pixels: PixelBuffer(width: 2, height: 2), duration: .milliseconds(10))
        #expect(throws: AnimatedImageError.invalidArgument("frame 0 is 2×2, the canvas is 3×3")) {
            try APNGEncoder().encode([frame], canvasSize: PixelSize(width: 3, height: 3), options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument("APNGEncoder needs at least one frame")) {
            try APNGEncoder().encode([], canvasSize: PixelSize(width: 3, height: 3), options: EncodingOptions())
        }
    }

    @Test func pngEncoderWritesARegion() throws {
        let b = APNGEncoderTests.canvas(4, 4) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        let png = try PNGEncoder().encode(b, region: PixelRect(x: 1, y: 2, width: 2, height: 2))
        let decoded = try Fixture.source(png).decodeFrame(at: 0)
        #expect(decoded.size == PixelSize(width: 2, height: 2))
        #expect(decoded.pixel(x: 0, y: 0) == [1, 2, 0, 255])
        #expect(decoded.pixel(x: 1, y: 1) == [2, 3, 0, 255])
    }
}
