import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// The bulk path over WebP: bitstreams decoded on worker threads, libwebp's blend in order.
@Suite struct WebPBulkDecodingTests {
    @Test func blendedFramesMatchOneByOneAndWebPAnimDecoder() throws {
        let file = try WebPBlendArithmeticTests.layeredFile()
        let check = BulkDecodingCheck { try WebPCoder().makeFrameSource(data: file, options: .default) }
        #expect(try check.violations(threads: [1, 2, 4]).isEmpty)
        let bulk = try check.bulk(threads: 2)
        #expect(bulk.threads == 2)
        #expect(bulk.frames.map(\.pixels.bytes) == (try WebPFixture.referenceFrames(file)))
    }

    @Test func fullCanvasKeyFramesAreHandedOverWithoutTheCanvas() throws {
        // Independent full-canvas frames: each payload becomes the caller's buffer.
        let frames = (0..<9).map { k in WebPFixture.Frame(pixels: WebPFixture.solid(16, 12, (UInt8(k * 25), 80, 160, 255))) }
        let file = try WebPFixture.animation(canvas: PixelSize(width: 16, height: 12), frames: frames)
        let check = BulkDecodingCheck { try WebPCoder().makeFrameSource(data: file, options: .default) }
        #expect(try check.violations(threads: [2, 4]).isEmpty)
        #expect(try check.bulk(threads: 2).frames.map { $0.pixels.pixel(x: 3, y: 3) } == (0..<9).map { [UInt8($0 * 25), 80, 160, 255] })
    }

    @Test func aCorruptBitstreamEndsTheRunWithTheOneFramePathsError() throws {
        var file = try WebPBlendArithmeticTests.layeredFile()
        // Frame 6's image data: overwrite its bitstream past the header.
        let anmf = WebPFixture.chunkOffsets(file, "ANMF")
        let start = anmf[6] + 8 + 16 + 8 + 12
        for k in start..<(start + 24) { file[k] = 0xFF }
        let check = BulkDecodingCheck { try WebPCoder().makeFrameSource(data: file, options: .default) }
        let reference = try check.oneByOne()
        #expect(reference.frames.count == 6)
        #expect(reference.error != nil)
        #expect(try check.bulk(threads: 2) == reference)
        #expect(try check.bulk(threads: 4) == reference)
    }
}
