import Foundation
import Testing
import ZoetropeCodecs

@Suite struct CodecErrorMessageTests {
    @Test func aFrameLimitMessageNamesTheLimitWithoutInventingACount() throws {
        var limits = Limits.default
        limits.maxFrameCount = 3
        let gif = CodecsFixture.gif(delays: [10, 10, 10, 10, 10, 10])
        do {
            _ = try AnimatedImage(data: gif, registry: CodecsFixture.registry(), options: DecodingOptions(limits: limits))
            Issue.record("a 6-frame GIF passed maxFrameCount 3")
        } catch {
            #expect(error.localizedDescription == "gif: maxFrameCount exceeded: the file has more than 3 frames, the limit is 3")
        }
    }

    /// Six 4×4 frames of 50 ms, encoded with one of the project's encoders.
    private static func sixFrames(_ encoder: any AnimatedImageEncoder) throws -> Data {
        let frames = (0..<6).map { i -> EncodingFrame in
            var pixels = PixelBuffer(width: 4, height: 4)
            for y in 0..<4 { for x in 0..<4 { pixels.setPixel(x: x, y: y, [UInt8(i * 40), 0, 0, 255]) } }
            return EncodingFrame(pixels: pixels, duration: .milliseconds(50))
        }
        return try encoder.encode(frames, canvasSize: PixelSize(width: 4, height: 4), options: EncodingOptions())
    }

    @Test func eachFormatStatesTheFrameCountItKnows() throws {
        var limits = Limits.default
        limits.maxFrameCount = 3
        let options = DecodingOptions(limits: limits)
        // WebP's demuxer knows the real count; the APNG walker stops counting at the limit.
        let cases: [(Data, String)] = [
            (try Self.sixFrames(WebPEncoder()), "webp: maxFrameCount exceeded: the file has 6 frames, the limit is 3"),
            (try Self.sixFrames(APNGEncoder()), "apng: maxFrameCount exceeded: the file has more than 3 frames, the limit is 3"),
        ]
        for (data, message) in cases {
            do {
                _ = try AnimatedImage(data: data, registry: CodecsFixture.registry(), options: options)
                Issue.record("a 6-frame file passed maxFrameCount 3: \(message)")
            } catch {
                #expect(error.localizedDescription == message)
            }
        }
    }

    @Test func aWebPPrefixShorterThanTheSniffLengthNeedsMoreData() throws {
        // RIFF, size, WEBP, VP8X: 16 bytes of the 21 the WebP sniffer reads.
        let prefix = Data("RIFF".utf8) + Data([0x40, 0, 0, 0]) + Data("WEBPVP8X".utf8)
        let expected = AnimatedImageError.insufficientData(format: .webp, needed: 21, available: 16)
        #expect(throws: expected) { try AnimatedImage(data: prefix, registry: CodecsFixture.registry()) }
        #expect(expected.localizedDescription == "webp: not enough data: need at least 21 bytes, have 16")
        #expect(throws: AnimatedImageError.insufficientData(format: .webp, needed: 21, available: 10)) {
            try AnimatedImage(data: prefix.prefix(10), registry: CodecsFixture.registry())
        }
        #expect(throws: AnimatedImageError.insufficientData(format: .gif, needed: 6, available: 4)) {
            try AnimatedImage(data: Data("GIF8".utf8), registry: CodecsFixture.registry())
        }
    }
}
