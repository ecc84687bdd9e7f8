import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

/// Opening an incremental source from a stream's first bytes through the registry.
@Suite struct IncrementalRegistryTests {
    @Test func theFirstBytesChooseTheCoder() throws {
        let registry = CodecsFixture.registry()
        let gif = CodecsFixture.gif(delays: [10, 20, 30])
        // "GIF8" could still be either version: not enough to choose.
        #expect(try registry.makeIncrementalSource(prefix: gif.prefix(4)) == nil)
        let source = try #require(try registry.makeIncrementalSource(prefix: gif.prefix(20)))
        #expect(source.snapshot.receivedByteCount == 20)
        #expect(source.snapshot.format == .gif)
        try source.append(gif.dropFirst(20))
        #expect(try source.finish() == registry.makeFrameSource(data: gif).info)
    }

    @Test func bytesNoCoderKnowsAreRefused() {
        #expect(throws: AnimatedImageError.unrecognizedFormat(prefix: Array("hello, world".utf8))) {
            try CodecsFixture.registry().makeIncrementalSource(prefix: Data("hello, world".utf8))
        }
    }

    /// A coder that needs the whole file: it matches "WHOLE" and does not adopt `IncrementalDecoding`.
    struct WholeFileOnlyCoder: AnimatedImageCoder {
        static let format = ImageFormat(identifier: "wholefile", mediaType: "image/x-wholefile", fileExtensions: ["whole"])
        var formats: [ImageFormat] { [Self.format] }
        var minimumSniffLength: Int { 5 }
        func sniff(_ prefix: Data) -> SniffResult {
            prefix.starts(with: Array("WHOLE".utf8)) ? .match(Self.format, .still) : .noMatch
        }
        func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
            throw AnimatedImageError.unsupported(format: Self.format, feature: "decoding (a test coder)")
        }
    }

    @Test func aCoderWithoutIncrementalDecodingSaysSo() {
        let registry = CodecsFixture.registry()
        registry.register(WholeFileOnlyCoder())
        #expect(
            throws: AnimatedImageError.unsupported(
                format: WholeFileOnlyCoder.format,
                feature: "incremental decoding (the coder needs the whole file)")
        ) {
            try registry.makeIncrementalSource(prefix: Data("WHOLE file".utf8))
        }
    }
}

/// The bytes a session holds count against the allocation limit, so an endless stream fails
/// with the limit's error instead of growing until memory runs out.
@Suite struct IncrementalAllocationLimitTests {
    /// Twenty 32×32 frames of noise, 50 ms each: a file much larger than the decoder's own
    /// budget (a few canvases), so the bytes received are what passes the limit.
    static func noise(_ encoder: any AnimatedImageEncoder, quality: Int? = nil) throws -> Data {
        var rng = SplitMix64(seed: 15)
        let frames = (0..<20).map { _ -> EncodingFrame in
            var pixels = PixelBuffer(width: 32, height: 32)
            for y in 0..<32 {
                for x in 0..<32 {
                    let v = rng.next()
                    pixels.setPixel(
                        x: x, y: y,
                        [
                            UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8),
                            UInt8(truncatingIfNeeded: v >> 16), 255,
                        ])
                }
            }
            return EncodingFrame(pixels: pixels, duration: .milliseconds(50))
        }
        return try encoder.encode(frames, canvasSize: PixelSize(width: 32, height: 32), options: EncodingOptions(quality: quality))
    }

    @Test(arguments: ["gif", "apng", "webp", "avif"])
    func theByteThatPassesTheLimitFailsTheSession(format: String) throws {
        let encoders: [String: any AnimatedImageEncoder] = [
            "gif": GIFEncoder(), "apng": APNGEncoder(),
            "webp": WebPEncoder(), "avif": AVIFEncoder(),
        ]
        let file = try Self.noise(try #require(encoders[format]), quality: format == "avif" ? 90 : nil)
        let options = DecodingOptions(limits: Limits(maxAllocationBytes: file.count - 1))
        let registry = CodecsFixture.registry()
        let session = try #require(try registry.makeIncrementalSource(prefix: file.prefix(64), options: options))
        try session.append(file.dropFirst(64).dropLast())
        let before = session.snapshot
        // AVIF's metadata parse (libavif) is told the file is at most the limit, so it opens
        // only once the file fits; the other formats have frames by now.
        #expect(format == "avif" ? before.frameCount == 0 : before.frameCount > 0)
        let expected = AnimatedImageError.limitExceeded(
            format: try #require(before.format), limit: .allocationBytes,
            requested: file.count, allowed: file.count - 1)
        #expect(throws: expected) { try session.append(file.suffix(1)) }
        // The session has failed for good; the frames before the limit stay decodable.
        #expect(throws: expected) { try session.finish() }
        #expect(session.snapshot.frameCount == before.frameCount)
        if before.frameCount > 0 {
            var buffer = PixelBuffer()
            try session.decodeFrame(at: 0, into: &buffer)
            #expect(buffer.width == 32)
        }
        // Under the default limit the same bytes decode.
        let roomy = try #require(try registry.makeIncrementalSource(prefix: file))
        #expect(try roomy.finish().frameCount == 20)
    }
}
