import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Every colour type and bit depth arrives as straight 8-bit RGBA, in stills and in frames.
@Suite struct PNGColorTypeTests {
    /// A still PNG from packed rows, with optional PLTE / tRNS.
    static func still(
        width: Int, height: Int? = nil, rows: [[UInt8]], bitDepth: UInt8, colorType: UInt8,
        palette: [UInt8]? = nil, transparency: [UInt8]? = nil, interlace: UInt8 = 0
    ) -> Data {
        var w = APNGWriter()
        w.append(
            "IHDR",
            APNGWriter.ihdr(
                width: width, height: height ?? rows.count, bitDepth: bitDepth,
                colorType: colorType, interlace: interlace))
        if let palette { w.append("PLTE", palette) }
        if let transparency { w.append("tRNS", transparency) }
        w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rows: rows)))
        w.append("IEND", [])
        return w.data
    }

    static func pixels(_ data: Data) throws -> [[UInt8]] {
        let frame = try Fixture.source(data).decodeFrame(at: 0)
        return (0..<frame.height).flatMap { y in (0..<frame.width).map { frame.pixel(x: $0, y: y) } }
    }

    @Test func grey1Bit() throws {
        let data = PNGColorTypeTests.still(width: 4, rows: [[0b1010_0000]], bitDepth: 1, colorType: 0)
        #expect(try PNGColorTypeTests.pixels(data) == [[255, 255, 255, 255], [0, 0, 0, 255], [255, 255, 255, 255], [0, 0, 0, 255]])
    }

    @Test func grey4BitWithTransparentValue() throws {
        let data = PNGColorTypeTests.still(width: 2, rows: [[0x5F]], bitDepth: 4, colorType: 0, transparency: [0, 15])
        #expect(try PNGColorTypeTests.pixels(data) == [[85, 85, 85, 255], [255, 255, 255, 0]])
    }

    @Test func grey16BitIsScaledNotGammaConverted() throws {
        // 0x8080 is exactly 128 × 257; 0x4000 rounds to 64. A linear-light reading would give ~188 and ~137.
        let data = PNGColorTypeTests.still(width: 2, rows: [[0x80, 0x80, 0x40, 0x00]], bitDepth: 16, colorType: 0)
        #expect(try PNGColorTypeTests.pixels(data) == [[128, 128, 128, 255], [64, 64, 64, 255]])
    }

    @Test func greyAlpha8Bit() throws {
        let data = PNGColorTypeTests.still(width: 1, rows: [[100, 50]], bitDepth: 8, colorType: 4)
        #expect(try PNGColorTypeTests.pixels(data) == [[100, 100, 100, 50]])
    }

    @Test func rgb8BitWithTransparentColour() throws {
        let data = PNGColorTypeTests.still(
            width: 2, rows: [[1, 2, 3, 4, 5, 6]], bitDepth: 8, colorType: 2,
            transparency: [0, 4, 0, 5, 0, 6])
        #expect(try PNGColorTypeTests.pixels(data) == [[1, 2, 3, 255], [4, 5, 6, 0]])
    }

    @Test func rgba16Bit() throws {
        let data = PNGColorTypeTests.still(width: 1, rows: [[0xFF, 0xFF, 0, 0, 0x80, 0x80, 0x80, 0x80]], bitDepth: 16, colorType: 6)
        #expect(try PNGColorTypeTests.pixels(data) == [[255, 0, 128, 128]])
    }

    @Test func palette2BitWithAlpha() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        let data = PNGColorTypeTests.still(
            width: 4, rows: [[0b00_01_10_11]], bitDepth: 2, colorType: 3,
            palette: palette, transparency: [255, 128])
        #expect(try PNGColorTypeTests.pixels(data) == [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 255], [255, 255, 255, 255]])
    }

    @Test func adam7Interlaced() throws {
        // 2×2 under Adam7: pass 1 holds (0,0), pass 6 (1,0), pass 7 the second row.
        let rows: [[UInt8]] = [[10, 0, 0, 255], [20, 0, 0, 255], [30, 0, 0, 255, 40, 0, 0, 255]]
        let data = PNGColorTypeTests.still(width: 2, height: 2, rows: rows, bitDepth: 8, colorType: 6, interlace: 1)
        #expect(try PNGColorTypeTests.pixels(data) == [[10, 0, 0, 255], [20, 0, 0, 255], [30, 0, 0, 255], [40, 0, 0, 255]])
    }

    @Test func paletteAnimationFramesUseTheFilesPLTEAndTRNS() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0]
        let z0 = APNGWriter.zlibStored(APNGWriter.scanlines(rows: [[0b0000_0000]]))
        let z1 = APNGWriter.zlibStored(APNGWriter.scanlines(rows: [[0b0100_0000]]))
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 2, height: 1, bitDepth: 1, colorType: 3))
        w.append("PLTE", palette)
        w.append("tRNS", [128])
        w.append("acTL", APNGWriter.actl(frameCount: 2, plays: 0))
        w.append("fcTL", APNGWriter.fctl(sequence: 0, width: 2, height: 1))
        w.append("IDAT", z0)
        w.append("fcTL", APNGWriter.fctl(sequence: 1, width: 2, height: 1))
        w.append("fdAT", APNGWriter.fdat(sequence: 2, z1))
        w.append("IEND", [])
        let frames = try Fixture.frames(w.data)
        #expect(frames[0].bytes == [255, 0, 0, 128, 255, 0, 0, 128])
        #expect(frames[1].bytes == [255, 0, 0, 128, 0, 255, 0, 255])
    }
}
