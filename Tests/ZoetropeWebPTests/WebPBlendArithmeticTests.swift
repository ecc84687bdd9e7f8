import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

/// WebP frames blended over partly transparent pixels must match libwebp's own animation
/// decoder (`WebPAnimDecoder`) byte for byte, as Chromium does: libwebp's integer blend
/// drifts from the exact result frame after frame, and that drift is what browsers show.
@Suite struct WebPBlendArithmeticTests {
    /// A 24×16 canvas: a partly transparent lossless gradient, then twelve half-transparent
    /// frames blended over it in overlapping places, one of them disposed to the background
    /// (so the next frame blends partly over just-cleared pixels, which libwebp leaves
    /// unblended), mixing lossless and lossy-with-alpha bitstreams.
    static func layeredFile() throws -> Data {
        var base = PixelBuffer(width: 24, height: 16)
        for y in 0..<16 {
            for x in 0..<24 {
                base.setPixel(x: x, y: y, [UInt8(x * 10), UInt8(255 - y * 15), 77, UInt8(x < 4 ? 0 : 30 + (x * 7 + y * 3) % 200)])
            }
        }
        var frames: [WebPFixture.Frame] = [.init(pixels: base)]
        for k in 0..<12 {
            var p = PixelBuffer(width: 10, height: 8)
            for y in 0..<8 {
                for x in 0..<10 {
                    let a = UInt8((37 * k + 11 * x + 5 * y) % 256)
                    p.setPixel(x: x, y: y, [UInt8((60 * k + 23 * x) % 256), UInt8((90 + 17 * y) % 256), UInt8((200 + 31 * k) % 256), a])
                }
            }
            frames.append(
                .init(
                    pixels: p, x: 2 * (k % 7), y: k % 8 & ~1,
                    dispose: k == 5 ? .background : .none,
                    lossyQuality: k % 4 == 3 ? 85 : nil))
        }
        return try WebPFixture.animation(canvas: PixelSize(width: 24, height: 16), frames: frames)
    }

    @Test func partialAlphaOverPartialAlphaMatchesWebPAnimDecoderByteForByte() throws {
        let file = try Self.layeredFile()
        let reference = try WebPFixture.referenceFrames(file)
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(reference.count == 13 && source.info.frameCount == 13)
        for i in 0..<reference.count {
            let frame = try source.decodeFrame(at: i)
            // Compared as a count of differing bytes, so a failure says how far off, not 1,536 numbers.
            #expect(
                zip(frame.bytes, reference[i]).filter { $0 != $1 }.count == 0,
                "frame \(i): off by up to \(frame.maxChannelDifference(from: reference[i]))")
        }
        // Random access from a fresh source lands on the same bytes.
        for i in [12, 7, 6, 3] {
            let seeker = try WebPCoder().makeFrameSource(data: file, options: .default)
            #expect(try seeker.decodeFrame(at: i).maxChannelDifference(from: reference[i]) == 0, "seek to frame \(i)")
        }
    }

    @Test func libwebpsFormulaOnKnownPixels() {
        // 40% blue over opaque red: libwebp gives (152, 0, 101, 255), the exact maths 153/102.
        var d: [UInt8] = [255, 0, 0, 255]
        let s: [UInt8] = [0, 0, 255, 102]
        d.withUnsafeMutableBufferPointer { dp in s.withUnsafeBufferPointer { WebPBlend.blendPixel(dp.baseAddress!, $0.baseAddress!) } }
        #expect(d == [152, 0, 101, 255])
        // Over a transparent pixel the colour is rescaled too: 255 → 254.
        var t: [UInt8] = [0, 0, 0, 0]
        t.withUnsafeMutableBufferPointer { dp in s.withUnsafeBufferPointer { WebPBlend.blendPixel(dp.baseAddress!, $0.baseAddress!) } }
        #expect(t == [0, 0, 254, 102])
        // α = 0 keeps the destination, α = 255 replaces it.
        var u: [UInt8] = [1, 2, 3, 4]
        let none: [UInt8] = [9, 9, 9, 0], full: [UInt8] = [7, 8, 9, 255]
        u.withUnsafeMutableBufferPointer { dp in none.withUnsafeBufferPointer { WebPBlend.blendPixel(dp.baseAddress!, $0.baseAddress!) } }
        #expect(u == [1, 2, 3, 4])
        u.withUnsafeMutableBufferPointer { dp in full.withUnsafeBufferPointer { WebPBlend.blendPixel(dp.baseAddress!, $0.baseAddress!) } }
        #expect(u == [7, 8, 9, 255])
    }
}
