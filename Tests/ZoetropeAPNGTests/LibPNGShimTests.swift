import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// The C shim's contract: libpng's own limits are set from `Limits`, and a libpng error
/// (a longjmp inside the shim) comes back as a typed error, with the source still usable.
@Suite struct LibPNGShimTests {
    @Test func libpngsUserLimitsComeFromLimits() throws {
        let data = APNGWriter.stillPNG(width: 4, height: 2, rgba: Fixture.fill(4, 2, Fixture.red))
        let index = try data.withUnsafeBytes { try APNGChunkWalker.index($0, limits: .default) }
        var stream = PNGFrameStream()
        var pixels = [UInt8](repeating: 0, count: 4 * 2 * 4)
        try data.withUnsafeBytes { file in
            try stream.prepare(index.frames[0], index: index, file: file, format: .png)
            #expect(
                throws: AnimatedImageError.codecFailure(
                    format: .png, library: "libpng",
                    message: "Invalid IHDR data (Image width exceeds user limit in IHDR)")
            ) {
                try pixels.withUnsafeMutableBytes { dst in
                    try stream.decode(
                        index.frames[0], file: file, into: dst.baseAddress!, bytesPerRow: 16,
                        limits: Limits(maxWidth: 3), format: .png)
                }
            }
            // The same stream under the default limits decodes.
            _ = try pixels.withUnsafeMutableBytes { dst in
                try stream.decode(
                    index.frames[0], file: file, into: dst.baseAddress!, bytesPerRow: 16,
                    limits: .default, format: .png)
            }
        }
        #expect(pixels == Fixture.fill(4, 2, Fixture.red))
    }

    @Test func truncatedImageDataKeepsTheRowsItHas() throws {
        // An IDAT whose zlib stream holds one row of two: libpng runs out of data after row 0,
        // which stays; the missing row is transparent (Docs/FormatRules.md).
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 1, height: 2))
        w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rgba: Fixture.red, width: 1, height: 1)))
        w.append("IEND", [])
        let source = try Fixture.source(w.data)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.red + Fixture.clear)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.red + Fixture.clear)  // again, same answer
    }

    @Test func hasAlphaFollowsTheColourTypeAndTheFrames() throws {
        let opaque = APNGWriter.animation(
            width: 2, height: 1,
            frames: [
                .solid(width: 2, height: 1, Fixture.red), .solid(width: 1, height: 1, Fixture.green),
            ]
        ).data
        #expect(try Fixture.source(opaque).info.hasAlpha == true)  // colour type 6
        var rgb = APNGWriter()
        rgb.append("IHDR", APNGWriter.ihdr(width: 1, height: 1, colorType: 2))
        rgb.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rows: [[1, 2, 3]])))
        rgb.append("IEND", [])
        let source = try Fixture.source(rgb.data)
        #expect(source.info.hasAlpha == false)
        #expect(try source.decodeFrame(at: 0).bytes == [1, 2, 3, 255])
    }
}
