import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport
import ZoetropeWebP

/// A lossy request never makes a file bigger than lossless frames would: frames of few
/// colours are encoded both ways and the smaller kept; frames of many colours stay lossy.
@Suite struct WebPLossyNotBiggerTests {
    static let size = PixelSize(width: 96, height: 64)

    /// Flat shapes in eight colours moving over a flat background: a GIF-like source.
    static func paletteFrames() -> [EncodingFrame] {
        let palette: [[UInt8]] = [
            [255, 0, 0, 255], [0, 160, 0, 255], [0, 0, 255, 255], [250, 220, 0, 255],
            [0, 0, 0, 255], [255, 255, 255, 255], [128, 0, 128, 255], [0, 128, 128, 255],
        ]
        return (0..<6).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let stripe = ((x + 3 * k) / 6 + y / 9) % 8
                    let inBox = x >= 10 + 8 * k && x < 40 + 8 * k && y >= 12 && y < 44
                    b.setPixel(x: x, y: y, inBox ? palette[(stripe + k) % 8] : palette[stripe / 4 + 4])
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(80))
        }
    }

    /// Noise with thousands of colours: what lossy encoding is for.
    static func photoFrames() -> [EncodingFrame] {
        var rng = SplitMix64(seed: 3)
        return (0..<3).map { _ in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let r = rng.next()
                    b.setPixel(
                        x: x, y: y, [UInt8(truncatingIfNeeded: r), UInt8(truncatingIfNeeded: r >> 8), UInt8(truncatingIfNeeded: r >> 16), 255])
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(80))
        }
    }

    /// Counts of `VP8 ` (lossy) and `VP8L` (lossless) bitstream chunks in a file.
    static func bitstreams(_ file: Data) -> (lossy: Int, lossless: Int) {
        let bytes = [UInt8](file)
        var lossy = 0, lossless = 0
        for i in 0..<(bytes.count - 4) where bytes[i] == 0x56 && bytes[i + 1] == 0x50 && bytes[i + 2] == 0x38 {
            if bytes[i + 3] == 0x20 { lossy += 1 } else if bytes[i + 3] == 0x4C { lossless += 1 }
        }
        return (lossy, lossless)
    }

    @Test(arguments: [50, 75, 95])
    func aPaletteSourceIsNoBiggerLossyThanLossless(quality: Int) throws {
        let frames = Self.paletteFrames()
        let lossless = try WebPEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions(loopCount: .infinite))
        let lossy = try WebPEncoder().encode(
            frames, canvasSize: Self.size,
            options: EncodingOptions(loopCount: .infinite, quality: quality))
        #expect(lossy.count <= lossless.count, "q\(quality): lossy \(lossy.count) bytes, lossless \(lossless.count)")
        // Frames kept lossless decode exactly.
        let source = try WebPCoder().makeFrameSource(data: lossy, options: .default)
        #expect(source.info.frameCount == frames.count)
        if Self.bitstreams(lossy).lossy == 0 {
            for i in frames.indices { #expect(try source.decodeFrame(at: i) == frames[i].pixels, "frame \(i)") }
        }
    }

    @Test func aSourceOfManyColoursStaysLossy() throws {
        let lossy = try WebPEncoder().encode(
            Self.photoFrames(), canvasSize: Self.size,
            options: EncodingOptions(loopCount: .infinite, quality: 75))
        let streams = Self.bitstreams(lossy)
        #expect(streams.lossy == 3 && streams.lossless == 0)
    }
}
