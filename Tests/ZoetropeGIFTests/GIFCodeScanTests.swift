import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

private typealias F = GIFFixture

/// The index's LZW check reads codes the quick way and questions a code only the exact way
/// (with string lengths, up to the last pixel) can judge. These files put such codes before
/// and after the last pixel, and deep in an image's later sub-blocks, where the exact way
/// must read the image again from its first sub-block.
@Suite struct GIFCodeScanTests {
    /// 600 codes of one literal each, then `tail`: a 600×1 image whose first 600 codes
    /// (3 bits at first, 4 from the fourth entry on, …) take several sub-blocks.
    static func longImage(pixels: Int, tail: [(code: Int, width: Int)]) -> [UInt8] {
        var codes: [(code: Int, width: Int)] = [(4, 3)]
        // After the clear, entries 6, 7, … are added from the second code on; the width
        // grows when the next free entry reaches 8, 16, 32, … (up to 12 bits).
        var next = 6, width = 3
        for k in 0..<600 {
            codes.append((1 + k % 3, width))
            if k > 0, next < 4096 {
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
        }
        // Re-encode `tail` at the width reached (the caller gives widths of 0 for "current").
        codes += tail.map { ($0.code, $0.width == 0 ? width : $0.width) }
        var w = GIFWriter(width: pixels, height: 1, globalColors: F.palette)
        w.graphicControl(delay: 10)
        w.image(width: pixels, height: 1, indices: [UInt8](repeating: 1, count: pixels))
        w.graphicControl(delay: 10)
        w.image(width: pixels, height: 1, minimumCodeSize: 2, lzwData: GIFWriter.packCodes(codes))
        return w.file
    }

    @Test func aLiteralTheTableLacksAfterTheLastPixelIsNoWarning() throws {
        // Code size 3 over a 4-colour table: literals 4–7 have no colour. Clear (8), 1, 1
        // fill the two pixels; the 6 after them is never read.
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, minimumCodeSize: 3, lzwData: GIFWriter.packCodes([(8, 4), (1, 4), (1, 4), (6, 4), (9, 4)]))
        let source = try F.source(w.file)
        #expect(source.info.warnings.isEmpty)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueRed])
    }

    @Test func aLiteralTheTableLacksBeforeTheLastPixelIsTheWarning() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, minimumCodeSize: 3, lzwData: GIFWriter.packCodes([(8, 4), (1, 4), (6, 4), (9, 4)]))
        let source = try F.source(w.file)
        #expect(source.info.warnings == [
            "frame 0 uses colour index 6 outside its 4-entry colour table: indices without a colour are drawn opaque black, as Chromium does",
        ])
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueBlack])
    }

    @Test(arguments: [0, 1, 7, 4096])
    func aBadCodeInALaterSubBlockEndsTheAnimationBeforeIt(step: Int) throws {
        // 601 pixels: the code past the next free entry (1000) comes before the last one.
        let bytes = Self.longImage(pixels: 601, tail: [(1000, 0), (5, 0)])
        let info: AnimationInfo
        if step == 0 {
            info = try F.source(bytes).info
        } else {
            let session = GIFCoder().makeIncrementalSource(options: .default)
            for start in stride(from: 0, to: bytes.count, by: step) {
                _ = try session.append(bytes[start..<min(bytes.count, start + step)])
            }
            info = try session.finish()
        }
        #expect(info.frameCount == 1)
        #expect(info.truncation == .invalidData(
            format: .gif, reason: "frame 1 at offset 77 has LZW code 1000 past the next free table entry 605; the animation ends before it"))
    }

    @Test func theSameCodeAfterTheLastPixelOfALongImageIsNeverRead() throws {
        // 600 pixels: the image is full before the 1000 comes.
        let bytes = Self.longImage(pixels: 600, tail: [(1000, 0), (5, 0)])
        let source = try F.source(bytes)
        #expect(source.info.frameCount == 2)
        #expect(source.info.truncation == nil)
        let pixels = F.pixels(try source.decodeFrame(at: 1))
        #expect(pixels.count == 600)
        #expect(pixels[0] == F.opaqueRed && pixels[1] == F.opaqueGreen && pixels[2] == F.opaqueBlue && pixels[599] == F.opaqueBlue)
    }
}
