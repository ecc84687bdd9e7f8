import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

/// A file that declares a colour profile decodes to the same converted pixels whether it is
/// opened whole or fed to an incremental session in pieces (as a download plays it), in
/// every format, and the session reports the colour from its first frame on.
@Suite struct IncrementalColorTests {
    static let size = PixelSize(width: 24, height: 16)
    static let tagged = EncodingOptions(loopCount: .infinite, color: ColorInfo(iccProfile: ColorFixtures.iccProfile))

    /// Three opaque frames of dark-to-light ramps, where the profile's gamma 2.2 and sRGB's
    /// curve disagree most (dark values).
    static func frames() -> [EncodingFrame] {
        (0..<3).map { i in
            var pixels = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let v = UInt8((x * 10 + y * 3 + i * 20) % 256)
                    pixels.setPixel(x: x, y: y, [v, UInt8(255 - Int(v)), UInt8((Int(v) * 3) % 256), 255])
                }
            }
            return EncodingFrame(pixels: pixels, duration: .milliseconds(50))
        }
    }

    static var cases: [(String, any AnimatedImageEncoder, any IncrementalDecoding)] {
        [
            ("gif", GIFEncoder(), GIFCoder()),
            ("apng", APNGEncoder(), APNGCoder()),
            ("webp", WebPEncoder(), WebPCoder()),
            ("avif", AVIFEncoder(), AVIFCoder()),
        ]
    }

    @Test(arguments: 0..<4)
    func piecesGiveTheWholeFilesConvertedFrames(_ i: Int) throws {
        let (name, encoder, coder) = Self.cases[i]
        let data = try encoder.encode(Self.frames(), canvasSize: Self.size, options: Self.tagged)
        // The conversion changes pixels: otherwise this test would prove nothing.
        let converted = try coder.makeFrameSource(data: data, options: .default)
        let stored = try coder.makeFrameSource(data: data, options: DecodingOptions(colorOutput: .stored))
        #expect(converted.info.color.iccProfile == ColorFixtures.iccProfile, "\(name)")
        #expect(try converted.decodeFrame(at: 0) != stored.decodeFrame(at: 0), "\(name): the profile converts nothing")
        for step in [1 << 6, 1 << 10] {
            let feed = IncrementalFeed(coder, data: data, step: step)
            #expect(feed.problems.isEmpty, "\(name), \(step)-byte pieces: \(feed.problems)")
            #expect(feed.framesChecked >= 3, "\(name), \(step)-byte pieces")
        }
        // The colour is known with the first frame, before the file has all arrived.
        let session = coder.makeIncrementalSource(options: .default)
        var offset = 0
        while offset < data.count, session.snapshot.frameCount == 0 {
            let end = min(data.count, offset + 64)
            _ = try data[offset..<end].withUnsafeBytes { try session.append(contentsOf: $0) }
            offset = end
        }
        #expect(offset < data.count, "\(name): frame 0 only with the last byte")
        #expect(session.snapshot.color.iccProfile == ColorFixtures.iccProfile, "\(name)")
        #expect(try session.decodeFrame(at: 0) == converted.decodeFrame(at: 0), "\(name)")
    }
}
