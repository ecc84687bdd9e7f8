import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// 10- and 12-bit AVIF from RGBA16 frames, decoded to RGBA16 without rounding through 8 bits.
@Suite(.enabled(if: AVIFTestEncoder.isAvailable, "libavif cannot encode with aom here"))
struct AVIFDeepPixelTests {
    static let size = PixelSize(width: 16, height: 12)

    static let frames: [EncodingFrame] = (0..<2).map { k in
        var b = PixelBuffer(width: size.width, height: size.height, format: .rgba16)
        for y in 0..<size.height {
            for x in 0..<size.width {
                b.setPixel16(
                    x: x, y: y,
                    [
                        UInt16((x * 4_099 + k * 1_001) % 65_536), UInt16((y * 5_003 + x * 11) % 65_536),
                        UInt16((x * y * 333 + k * 77) % 65_536), UInt16(65_535 - x * 1_500 - y * 700),
                    ])
            }
        }
        return EncodingFrame(pixels: b, duration: .milliseconds(50))
    }

    /// The largest channel difference between the frames and the file decoded to RGBA16.
    static func maxError(depth: Int) throws -> (Int, AnimationInfo) {
        let data = try AVIFEncoder(depth: depth).encode(frames, canvasSize: size, options: EncodingOptions())
        let source = try AVIFCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: .rgba16))
        var worst = 0
        for (i, f) in frames.enumerated() {
            let got = try source.decodeFrame(at: i)
            #expect(got.format == .rgba16)
            worst = max(worst, PixelComparison.maxChannelDifference16(f.pixels, got))
        }
        return (worst, source.info)
    }

    @Test func tenBitLosslessKeepsTenBits() throws {
        let (worst, info) = try Self.maxError(depth: 10)
        #expect(info.bitsPerChannel == 10)
        // Within 1/1023 of full scale; rounding through 8 bits would miss by up to 128.
        #expect(worst <= 65_535 / 1_023)
    }

    @Test func twelveBitLosslessKeepsTwelveBits() throws {
        let (worst, info) = try Self.maxError(depth: 12)
        #expect(info.bitsPerChannel == 12)
        #expect(worst <= 65_535 / 4_095)
    }

    @Test func eightBitOutputRoundsDeepFrames() throws {
        let (worst, info) = try Self.maxError(depth: 8)
        #expect(info.bitsPerChannel == 8)
        #expect(!info.isDeep)
        #expect(worst > 65_535 / 1_023)
        #expect(worst <= 65_535 / 255)
    }

    @Test func aDeepFileDecodedToRGBA8IsItsDeepDecodeRounded() throws {
        let data = try AVIFEncoder(depth: 10).encode(Self.frames, canvasSize: Self.size, options: EncodingOptions())
        let deep = try AVIFCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: .rgba16)).decodeFrame(at: 1)
        let eight = try AVIFCoder().makeFrameSource(data: data, options: DecodingOptions()).decodeFrame(at: 1)
        let rounded = deep.converted(to: .eight)
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                for c in 0..<4 {
                    #expect(abs(Int(rounded.pixel(x: x, y: y)[c]) - Int(eight.pixel(x: x, y: y)[c])) <= 1)
                }
            }
        }
    }
}
