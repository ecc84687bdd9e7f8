import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

private typealias F = GIFFixture

/// Hostile and odd GIFs: missing colours, corrupt LZW codes, repeated loop
/// blocks, and files asking for more work than `Limits` allow.
@Suite struct GIFRobustnessTests {
    @Test func framesWithoutAnyColourTableDrawOpaqueBlackOnTheRightCanvas() throws {
        // No global table, no local tables: every index has no colour (Chromium: opaque black).
        var w = GIFWriter(width: 2, height: 1)
        w.graphicControl(delay: 10)
        w.image(width: 2, height: 1, indices: [1, 1])
        w.graphicControl(delay: 10, transparentIndex: 2)
        w.image(width: 2, height: 1, indices: [2, 3])
        let source = try F.source(w.file)
        #expect(source.info.canvasSize == PixelSize(width: 2, height: 1))
        #expect(source.info.frameCount == 2)
        #expect(source.info.truncation == nil)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueBlack, F.opaqueBlack])
        // The transparent index still draws nothing.
        let second = try source.decodeFrame(at: 1)
        #expect(second.size == PixelSize(width: 2, height: 1))
        #expect(F.pixels(second) == [F.opaqueBlack, F.opaqueBlack])
        #expect(
            source.info.warnings == [
                "frame 0 has no colour table (neither local nor global) (and 1 more frame like it): indices without a colour are drawn opaque black, as Chromium does"
            ])
    }

    @Test func transparentIndexPastTheTableIsNoWarning() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: [F.red, F.green])
        w.graphicControl(transparentIndex: 3)
        w.image(width: 2, height: 1, indices: [1, 3])
        let source = try F.source(w.file)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueGreen, F.transparent])
        #expect(source.info.warnings.isEmpty)
    }

    @Test func codePastTheNextFreeEntryInALaterFrameEndsTheAnimationBeforeIt() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, indices: [1, 1])
        // Clear, 1, then 7 where the next free entry is 6: giflib would make up a pixel.
        w.image(width: 2, height: 1, minimumCodeSize: 2, lzwData: GIFWriter.packCodes([(4, 3), (1, 3), (7, 3), (5, 3)]))
        w.image(width: 2, height: 1, indices: [3, 3])
        let source = try F.source(w.file)
        #expect(source.info.frameCount == 1)
        #expect(
            source.info.truncation
                == .invalidData(
                    format: .gif, reason: "frame 1 at offset 40 has LZW code 7 past the next free table entry 6; the animation ends before it"))
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueRed])
        #expect(F.error({ _ = try source.decodeFrame(at: 1) }) == source.info.truncation)
    }

    @Test func codeAfterTheLastPixelIsNeverRead() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        // Clear, 1, 1 complete the image; the undefined 7 after them is not part of it.
        w.image(width: 2, height: 1, minimumCodeSize: 2, lzwData: GIFWriter.packCodes([(4, 3), (1, 3), (1, 3), (7, 3), (5, 3)]))
        let source = try F.source(w.file)
        #expect(source.info.truncation == nil)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueRed])
    }

    @Test func codeEqualToTheNextFreeEntryIsValid() throws {
        // Clear, 1, 6 (= "1 1", defined by the code itself), end: three red pixels.
        var w = GIFWriter(width: 3, height: 1, globalColors: F.palette)
        w.image(width: 3, height: 1, minimumCodeSize: 2, lzwData: GIFWriter.packCodes([(4, 3), (1, 3), (6, 3), (5, 3)]))
        let source = try F.source(w.file)
        #expect(source.info.truncation == nil)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueRed, F.opaqueRed])
    }

    @Test func theLastLoopBlockCounts() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        w.loop(50)
        w.image(width: 1, height: 1, indices: [1])
        w.loop(40, identifier: "ANIMEXTS1.0")
        w.image(width: 1, height: 1, indices: [2])
        let info = try F.source(w.file).info
        #expect(info.storedLoopValue == 40)
        #expect(info.loopCount == .plays(41))
    }

    @Test func manyLargeHighlyCompressedFramesAreRefusedByPixelsPerPlay() throws {
        // 200 frames of 4096×4096 in about 2 MB: 3.4 × 10^9 pixels per play.
        let side = 4096
        let data = GIFWriter.subBlocks(GIFWriter.zeroRunLZW(pixelCount: side * side))
        var w = GIFWriter(width: side, height: side, globalColors: F.palette)
        for _ in 0..<200 {
            w.imageDescriptor(width: side, height: side)
            w.raw([2] + data)
        }
        let error = F.error { _ = try F.source(w.file) }
        // Refused at the 65th frame: 64 × 4096² is exactly the default 2^30.
        #expect(error == .limitExceeded(format: .gif, limit: .pixelsPerPlay, requested: 65 * side * side, allowed: 1 << 30))
    }

    @Test func zeroRunLZWDecodesToTheWholeFrame() throws {
        var w = GIFWriter(width: 300, height: 200, globalColors: F.palette)
        w.image(width: 300, height: 200, minimumCodeSize: 2, lzwData: GIFWriter.zeroRunLZW(pixelCount: 300 * 200))
        let source = try F.source(w.file)
        #expect(source.info.truncation == nil)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.pixel(x: 299, y: 199) == F.opaqueBlack)
        #expect(frame.pixel(x: 0, y: 0) == F.opaqueBlack)
    }

    @Test func aLargeCanvasCostsNothingToOpenAndOnlyWhatItsFramesDrawToDecode() throws {
        var w = GIFWriter(width: 8192, height: 8192, globalColors: F.palette)
        w.image(width: 1, height: 1, indices: [1])
        let source = try F.source(w.file)
        #expect(source.info.canvasSize == PixelSize(width: 8192, height: 8192))
        #expect(source.retainedByteCount < 1 << 20)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 8192, height: 8192) && frame.pixel(x: 8191, y: 8191) == [0, 0, 0, 0])
        // The canvas holds the one pixel the image draws, not the screen.
        #expect(source.retainedByteCount < 1 << 20)
    }

    @Test func pixelsPerPlayCountsTheCanvasGrownByTheFirstFrame() throws {
        // A 1×1 screen whose first frame is 100×100: each frame costs 10,000 pixels.
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        for _ in 0..<3 { w.image(width: 100, height: 100, indices: [UInt8](repeating: 1, count: 10_000)) }
        var options = DecodingOptions.default
        options.limits.maxPixelsPerPlay = 29_999
        #expect(
            F.error { _ = try F.source(w.file, options: options) }
                == .limitExceeded(format: .gif, limit: .pixelsPerPlay, requested: 30_000, allowed: 29_999))
        options.limits.maxPixelsPerPlay = 30_000
        #expect(try F.source(w.file, options: options).info.frameCount == 3)
    }
}

extension GIFRobustnessTests {
    @Test func largestFileDerivedSizesUnderNoLimitsNeitherTrapNorAllocate() throws {
        // The first frame at the far corner of a 65535² screen grows the canvas to 65536²
        // (2^34 bytes of RGBA): every product and sum the index and the session make from it
        // must hold, and opening must not allocate it.
        var w = GIFWriter(width: 65535, height: 65535, globalColors: F.palette)
        for _ in 0..<3 { w.image(x: 65535, y: 65535, width: 1, height: 1, indices: [1]) }
        var options = DecodingOptions.default
        options.limits = .none
        let source = try F.source(w.file, options: options)
        #expect(source.info.canvasSize == PixelSize(width: 65536, height: 65536))
        #expect(source.info.frameCount == 3)
        #expect(source.info.allFramesByteCount == 3 << 34)
        #expect(source.retainedByteCount < 1 << 20)
    }
}
