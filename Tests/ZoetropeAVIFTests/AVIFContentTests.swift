import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// `AVIFEncoder.content`: aom's screen-content tools for palette sources, chosen from the
/// first frame unless the caller says.
@Suite struct AVIFContentTests {
    static let size = PixelSize(width: 64, height: 48)

    /// Two frames: `colours` distinct opaque colours in blocks of 4×4 pixels (at most 192
    /// blocks fit), or a smooth gradient with thousands of colours when `colours` is nil.
    static func frames(colours: Int?) -> [EncodingFrame] {
        (0..<2).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    if let colours {
                        let block = ((y / 4) * (size.width / 4) + x / 4 + k) % colours
                        b.setPixel(x: x, y: y, [UInt8(block * 37 % 256), UInt8(block * 11 % 256), UInt8(block), 255])
                    } else {
                        b.setPixel(x: x, y: y, [UInt8(x * 4), UInt8(y * 5), UInt8((x * y + k * 9) % 256), 255])
                    }
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(100))
        }
    }

    static func encode(_ frames: [EncodingFrame], _ content: AVIFContent) throws -> Data {
        try AVIFEncoder(speed: 6, content: content).encode(frames, canvasSize: size, options: EncodingOptions(quality: 60))
    }

    /// The boundary: 256 distinct RGBA values are few, 257 are not; transparency counts as
    /// colours too.
    @Test func fewColoursMeansAtMost256() {
        func buffer(_ n: Int) -> PixelBuffer {
            var b = PixelBuffer(width: 32, height: 16)
            for i in 0..<(32 * 16) { b.setPixel(x: i % 32, y: i / 32, [UInt8(i % n % 256), UInt8(i % n / 256), 9, i % n == 0 ? 0 : 255]) }
            return b
        }
        #expect(AVIFContent.hasFewColours(buffer(1)))
        #expect(AVIFContent.hasFewColours(buffer(256)))
        #expect(!AVIFContent.hasFewColours(buffer(257)))
        #expect(!AVIFContent.hasFewColours(buffer(512)))
    }

    /// A palette source gets the screen tools by default, a gradient does not, and both
    /// tunings decode to an animation of the source's frames.
    @Test func automaticChoosesFromTheFirstFrame() throws {
        let palette = Self.frames(colours: 40), gradient = Self.frames(colours: nil)
        let paletteScreen = try Self.encode(palette, .screen), paletteNatural = try Self.encode(palette, .natural)
        #expect(paletteScreen != paletteNatural, "the option changed nothing")
        #expect(try Self.encode(palette, .automatic) == paletteScreen)
        let gradientScreen = try Self.encode(gradient, .screen), gradientNatural = try Self.encode(gradient, .natural)
        #expect(gradientScreen != gradientNatural)
        #expect(try Self.encode(gradient, .automatic) == gradientNatural)
        for data in [paletteScreen, paletteNatural, gradientScreen] {
            let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
            #expect(source.info.frameCount == 2)
            #expect(source.info.frameDurations == [.milliseconds(100), .milliseconds(100)])
        }
    }

    /// libaom 3.6's real-time speeds crash with the screen tools on a sequence with alpha
    /// (speed 8): automatic does not use them there, and asking for them is refused.
    @Test func realTimeSpeedsNeverUseTheScreenTools() throws {
        var frames = Self.frames(colours: 40)
        frames[1].pixels.setPixel(x: 0, y: 0, [0, 0, 0, 0])
        for speed in 8...10 {
            let automatic = try AVIFEncoder(speed: speed, content: .automatic).encode(
                frames, canvasSize: Self.size, options: EncodingOptions(quality: 60))
            let natural = try AVIFEncoder(speed: speed, content: .natural).encode(
                frames, canvasSize: Self.size, options: EncodingOptions(quality: 60))
            #expect(automatic == natural, "speed \(speed)")
            #expect(
                throws: AnimatedImageError.invalidArgument(
                    "aom's screen-content tools need speed 0…7 (libaom 3.6's real-time speeds 8–10 crash with them), got speed \(speed)")
            ) {
                try AVIFEncoder(speed: speed, content: .screen).encode(frames, canvasSize: Self.size, options: EncodingOptions(quality: 60))
            }
        }
        // Lossless runs at speed 6 at most, where the tools are safe.
        let lossless = try AVIFEncoder(speed: 9, content: .screen).encode(frames, canvasSize: Self.size, options: EncodingOptions(quality: nil))
        #expect(try AVIFCoder().makeFrameSource(data: lossless, options: .default).info.frameCount == 2)
    }

    /// rav1e has no such tuning: the option leaves its output alone.
    @Test(.enabled(if: AVIFEncoder.isAvailable(codec: "rav1e"), "libavif here has no rav1e encoder"))
    func otherCodecsIgnoreIt() throws {
        let frames = Self.frames(colours: 40)
        let options = EncodingOptions(quality: 60)
        let screen = try AVIFEncoder(codec: "rav1e", speed: 10, content: .screen).encode(frames, canvasSize: Self.size, options: options)
        let natural = try AVIFEncoder(codec: "rav1e", speed: 10, content: .natural).encode(frames, canvasSize: Self.size, options: options)
        #expect(screen == natural)
    }
}
