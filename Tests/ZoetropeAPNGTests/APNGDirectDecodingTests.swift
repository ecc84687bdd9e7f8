import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Full-canvas frames that replace every pixel and are followed by a key frame decode
/// straight into the caller's buffer (the core's fast path), with the same pixels.
@Suite struct APNGDirectDecodingTests {
    static func gradient(_ seed: Int) -> [UInt8] {
        (0..<12).flatMap { p -> [UInt8] in [UInt8(p * 20 + seed), UInt8(200 - p * 10), UInt8(seed * 3), UInt8(40 + p * 15)] }
    }

    /// 4×3: 0 and 1 replace the canvas (SOURCE); 2 blends a patch over 1; 3 and 4 replace it again.
    static let file = APNGWriter.animation(
        width: 4, height: 3,
        frames: [
            .init(width: 4, height: 3, rgba: gradient(1)),
            .init(width: 4, height: 3, rgba: gradient(2)),
            .solid(x: 1, y: 1, width: 2, height: 1, [0, 0, 255, 255], blendOp: 1),
            .init(width: 4, height: 3, rgba: gradient(3)),
            .init(width: 4, height: 3, rgba: gradient(4)),
        ]
    ).data

    @Test func replacingFramesDecodeStraightIntoTheBufferWithTheSamePixels() throws {
        let source = try Fixture.source(Self.file)
        var buffer = PixelBuffer()
        // Frame 0 is followed by key frame 1: decoded straight into the buffer, not kept on
        // the canvas, so asking again decodes it again.
        try source.decodeFrame(at: 0, into: &buffer)
        #expect(buffer.bytes == Self.gradient(1))
        try source.decodeFrame(at: 0, into: &buffer)
        #expect(source.decodedFrameCount == 2)
        // Frame 1 is followed by frame 2, which blends over it: it goes through the canvas.
        try source.decodeFrame(at: 1, into: &buffer)
        try source.decodeFrame(at: 1, into: &buffer)
        #expect(source.decodedFrameCount == 3)
        #expect(buffer.bytes == Self.gradient(2))
        try source.decodeFrame(at: 2, into: &buffer)
        #expect(buffer.pixel(x: 1, y: 1) == [0, 0, 255, 255])
        #expect(buffer.pixel(x: 0, y: 0) == Array(Self.gradient(2)[0..<4]))
        for (i, seed) in [(3, 3), (4, 4), (0, 1), (4, 4), (3, 3)] {
            try source.decodeFrame(at: i, into: &buffer)
            #expect(buffer.bytes == Self.gradient(seed), "frame \(i)")
        }
        // The canvas path (premultiplied output) gives the same frames.
        let premultiplied = try Fixture.source(Self.file, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
        for (i, seed) in [(0, 1), (1, 2), (3, 3), (4, 4)] {
            var expected = PixelBuffer(width: 4, height: 3)
            expected.bytes = Self.gradient(seed)
            expected.premultiplyAlpha()
            #expect(try premultiplied.decodeFrame(at: i).bytes == expected.bytes, "premultiplied frame \(i)")
        }
    }
}
