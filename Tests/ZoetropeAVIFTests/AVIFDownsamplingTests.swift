import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// A frame delivered at a target size is converted band by band: the pixels equal the
/// full-size frame box-filtered down, and no full-size RGBA copy is held.
@Suite(.enabled(if: AVIFEncoder.isAvailable(codec: "aom"), "libavif here has no aom encoder"))
struct AVIFDownsamplingTests {
    static let size = PixelSize(width: 67, height: 301)

    /// Two frames of colour ramps and noise, with an alpha ramp when `alpha`: chroma changes
    /// from row to row, so a band converted without the rows around it would differ.
    static func frames(alpha: Bool) -> [EncodingFrame] {
        var rng = SplitMix64(seed: 7)
        return (0..<2).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let noise = UInt8.random(in: 0...40, using: &rng)
                    b.setPixel(
                        x: x, y: y,
                        [
                            UInt8((x * 3 + y * 2 + k * 50) % 256), UInt8((y * 7) % 256) &+ noise, UInt8((x * y) % 256),
                            alpha ? UInt8((y + x) % 256) : 255,
                        ])
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(100))
        }
    }

    @Test(arguments: [AVIFChroma.yuv420, .yuv444], [false, true])
    func framesEqualTheFullFrameFilteredDown(chroma: AVIFChroma, alpha: Bool) throws {
        let data = try AVIFEncoder(speed: 10, chroma: chroma).encode(
            Self.frames(alpha: alpha), canvasSize: Self.size, options: EncodingOptions(quality: 50))
        let full = try AVIFCoder().makeFrameSource(data: data, options: .default)
        for target in [PixelSize(width: 33, height: 150), PixelSize(width: 20, height: 97), PixelSize(width: 5, height: 5)] {
            for format in [PixelFormat.rgba8, .rgba8Premultiplied] {
                let small = try AVIFCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: format, targetSize: target))
                for i in 0..<2 {
                    var expected = PixelBuffer()
                    try full.decodeFrame(at: i).copy(into: &expected, size: small.outputSize, format: format)
                    let frame = try small.decodeFrame(at: i)
                    #expect(frame.size == expected.size && frame.packedBytes == expected.packedBytes, "frame \(i) at \(target), \(format)")
                }
                // What the small source holds beyond the full-size one is one band of RGBA
                // rows, not a frame.
                let band = (AVIFDecodeState.bandRows + 10) * Self.size.width * 4
                #expect(small.retainedByteCount - full.retainedByteCount <= band, "at \(target)")
                #expect(band < Self.size.width * Self.size.height * 4)
            }
        }
    }
}
