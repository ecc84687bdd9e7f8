import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

@Suite struct WebPBadInputTests {
    static func threeFrames() throws -> Data {
        var gradient = PixelBuffer(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 { gradient.setPixel(x: x, y: y, [UInt8(x * 16), UInt8(y * 16), UInt8((x * y) % 256), 255]) } }
        return try WebPFixture.animation(
            canvas: PixelSize(width: 16, height: 16),
            frames: [
                .init(pixels: gradient, durationMs: 10),
                .init(pixels: WebPFixture.solid(4, 4, (255, 0, 0, 255)), x: 2, y: 2, durationMs: 20),
                .init(pixels: gradient, x: 0, y: 0, durationMs: 30, blend: .source),
            ])
    }

    func expectFirstTwoFramesDecode(_ source: any FrameSource) throws {
        #expect(source.info.frameCount == 2)
        #expect(source.info.frameDurations == [.milliseconds(10), .milliseconds(20)])
        #expect(try source.decodeFrame(at: 1).pixel(x: 3, y: 3) == [255, 0, 0, 255])
    }

    @Test func truncatedFileKeepsItsCompleteFrames() throws {
        let file = try Self.threeFrames()
        let third = try #require(WebPFixture.chunkOffsets(file, "ANMF").last)
        let source = try WebPCoder().makeFrameSource(data: file.prefix(third + 40), options: .default)
        try expectFirstTwoFramesDecode(source)
        guard case .truncated(.webp, 2, let reason)? = source.info.truncation else {
            Issue.record("expected a truncation after 2 frames, got \(String(describing: source.info.truncation))")
            return
        }
        #expect(reason.contains("frame 2 onwards is missing or incomplete"))
        #expect(throws: source.info.truncation!) { try source.decodeFrame(at: 2) }
    }

    @Test func fileCutInsideTheFirstFrameIsAnError() throws {
        let file = try Self.threeFrames()
        let first = try #require(WebPFixture.chunkOffsets(file, "ANMF").first)
        #expect(throws: AnimatedImageError.self) { try WebPCoder().makeFrameSource(data: file.prefix(first + 30), options: .default) }
        do {
            _ = try WebPCoder().makeFrameSource(data: file.prefix(first + 30), options: .default)
        } catch let AnimatedImageError.truncated(format, complete, _) {
            #expect(format == .webp)
            #expect(complete == 0)
        }
    }

    @Test func brokenFrameHeaderKeepsTheFramesBeforeIt() throws {
        var file = try Self.threeFrames()
        let third = try #require(WebPFixture.chunkOffsets(file, "ANMF").last)
        #expect(file[third + 24..<third + 28].elementsEqual("VP8L".utf8))
        file[third + 32] = 0x00  // the VP8L signature byte (0x2f)
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        try expectFirstTwoFramesDecode(source)
        guard case .invalidData(.webp, let reason)? = source.info.truncation else {
            Issue.record("expected invalid data, got \(String(describing: source.info.truncation))")
            return
        }
        #expect(reason.contains("frame 2"))
    }

    @Test func frameOutsideTheCanvasKeepsTheFramesBeforeIt() throws {
        var file = try Self.threeFrames()
        let third = try #require(WebPFixture.chunkOffsets(file, "ANMF").last)
        file[third + 8] = 1  // x offset 2: a 16-wide frame then reaches x = 18 on a 16-wide canvas
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        try expectFirstTwoFramesDecode(source)
        #expect(source.info.truncation == .invalidData(format: .webp, reason: "frame 2: 16×16 at (2, 0) reaches outside the 16×16 canvas"))
    }

    @Test func corruptPixelDataFailsThatFrameOnly() throws {
        var file = try Self.threeFrames()
        let third = try #require(WebPFixture.chunkOffsets(file, "ANMF").last)
        let size = Int(file[third + 28]) | Int(file[third + 29]) << 8
        for i in (third + 32 + 5)..<(third + 32 + size) { file[i] = 0xFF }
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.frameCount == 3)
        let before = try source.decodeFrame(at: 1)
        #expect(throws: AnimatedImageError.self) { try source.decodeFrame(at: 2) }
        #expect(try source.decodeFrame(at: 1) == before)  // still usable
    }

    @Test func limitsAreCheckedBeforeDecoding() throws {
        let file = try Self.threeFrames()
        let coder = WebPCoder()
        #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .canvasPixels, requested: 256, allowed: 255)) {
            try coder.makeFrameSource(data: file, options: DecodingOptions(limits: Limits(maxCanvasPixels: 255)))
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .width, requested: 16, allowed: 15)) {
            try coder.makeFrameSource(data: file, options: DecodingOptions(limits: Limits(maxWidth: 15)))
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .frameCount, requested: 3, allowed: 2)) {
            try coder.makeFrameSource(data: file, options: DecodingOptions(limits: Limits(maxFrameCount: 2)))
        }
        // Canvas (1024 bytes) + scratch for the blending 4×4 frame (64 bytes) + libwebp's
        // working memory for the largest (16×16) frame, estimated at one raster (1024 bytes).
        #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .allocationBytes, requested: 2112, allowed: 2111)) {
            try coder.makeFrameSource(data: file, options: DecodingOptions(limits: Limits(maxAllocationBytes: 2111)))
        }
        #expect(try coder.makeFrameSource(data: file, options: DecodingOptions(limits: Limits(maxAllocationBytes: 2112))).info.frameCount == 3)
    }

    @Test func stillWhoseCanvasDisagreesWithItsImageIsRejected() throws {
        var file = try WebPFixture.still(WebPFixture.solid(6, 4, (10, 20, 30, 128)), lossyQuality: 80)
        let vp8x = try #require(WebPFixture.chunkOffsets(file, "VP8X").first)
        file[vp8x + 12] = 6  // canvas width 1 + 6 = 7, the image is 6 wide
        #expect(throws: AnimatedImageError.invalidData(format: .webp, reason: "the still image is 6×4 but the VP8X canvas is 7×4")) {
            try WebPCoder().makeFrameSource(data: file, options: .default)
        }
    }

    @Test func garbageIsATypedError() throws {
        let coder = WebPCoder()
        #expect(throws: AnimatedImageError.insufficientData(format: .webp, needed: 12, available: 4)) {
            try coder.makeFrameSource(data: Data("RIFF".utf8), options: .default)
        }
        #expect(throws: AnimatedImageError.invalidData(format: .webp, reason: "no RIFF/WEBP header")) {
            try coder.makeFrameSource(data: Data("RIFF\u{10}\0\0\0WEBX0123456789".utf8), options: .default)
        }
        var junk = Data("RIFF\u{20}\0\0\0WEBPVP8L".utf8)
        junk.append(contentsOf: [20, 0, 0, 0] + [UInt8](repeating: 0x41, count: 20))
        #expect(throws: AnimatedImageError.invalidData(format: .webp, reason: "the still image's VP8L bitstream is invalid")) {
            try coder.makeFrameSource(data: junk, options: .default)
        }
    }
}
