import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// The bulk path over GIF: LZW decoded to palette indices on worker threads, disposal and
/// drawing in order.
@Suite struct GIFBulkDecodingTests {
    /// 16 frames on a 30×20 screen: local and global palettes, transparency, every disposal,
    /// interlacing, a frame reaching past the screen's edge, and (when `partialFrame`) a
    /// frame whose LZW data ends after two pixels.
    static func animation(partialFrame: Int? = nil) -> [UInt8] {
        var rng = SplitMix64(seed: 16)
        var gif = GIFWriter(width: 30, height: 20, globalColors: GIFFixture.palette)
        gif.loop(0)
        for i in 0..<16 {
            let w = i % 4 == 0 ? 30 : 5 + Int(rng.next() % 20), h = i % 4 == 0 ? 20 : 4 + Int(rng.next() % 14)
            let x = i == 7 ? 22 : (i % 4 == 0 ? 0 : Int(rng.next() % UInt64(31 - w)))
            let y = i == 7 ? 12 : (i % 4 == 0 ? 0 : Int(rng.next() % UInt64(21 - h)))
            let indices = (0..<(w * h)).map { _ in UInt8(rng.next() % 4) }
            gif.graphicControl(delay: 5, disposal: i % 4, transparentIndex: i % 3 == 1 ? 2 : nil)
            let local: [GIFWriter.Color]? = i % 5 == 2 ? [(9, 9, 9), (200, 100, 0), (0, 100, 200), (255, 255, 0)] : nil
            if i == partialFrame {
                // Two pixels, then the end code.
                gif.image(
                    x: x, y: y, width: w, height: h, minimumCodeSize: 2,
                    lzwData: GIFWriter.packCodes([(4, 3), (1, 3), (3, 3), (5, 3)]), localColors: local)
            } else {
                gif.image(x: x, y: y, width: w, height: h, indices: indices, localColors: local, interlaced: i % 6 == 3)
            }
        }
        return gif.file
    }

    @Test func bulkFramesEqualOneByOneAtEveryThreadCount() throws {
        let data = Data(Self.animation())
        let check = BulkDecodingCheck { try GIFCoder().makeFrameSource(data: data, options: .default) }
        #expect(try check.violations(threads: [1, 2, 3, 4]).isEmpty)
        #expect(try check.bulk(threads: 3).threads == 3)
        #expect(try check.violations(5..<16, threads: [2]).isEmpty)
        let small = DecodingOptions(targetSize: PixelSize(width: 12, height: 12))
        let scaled = BulkDecodingCheck { try GIFCoder().makeFrameSource(data: data, options: small) }
        #expect(try scaled.violations(threads: [2]).isEmpty)
    }

    @Test func aFrameWhoseDataStopsEarlyGoesThroughTheOneFramePath() throws {
        let data = Data(Self.animation(partialFrame: 9))
        let check = BulkDecodingCheck { try GIFCoder().makeFrameSource(data: data, options: .default) }
        let reference = try check.oneByOne()
        #expect(reference.frames.count == 16)
        #expect(try check.violations(threads: [2, 4]).isEmpty)
    }

    @Test func payloadsAreOneByteAPixel() throws {
        let source = try #require(try GIFFixture.source(Self.animation()) as? GIFFrameSource)
        #expect(source.maxPayloadByteCount == 30 * 20 + 1024)
        let run = BulkFrameDecoder(source: source, frames: nil, threads: 2, tuning: .alwaysParallel)
        var buffer = PixelBuffer()
        #expect(try run.nextFrame(into: &buffer) == 0)
        #expect(run.retainedByteCount <= (run.framesInFlight + 1) * (source.maxPayloadByteCount + 4096))
        run.cancel()
        #expect(run.retainedByteCount == 0)
    }
}
