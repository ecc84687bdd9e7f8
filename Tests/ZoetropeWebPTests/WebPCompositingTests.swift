import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

/// Blend × dispose × alpha, on an 8×8 canvas whose left half is opaque red and right half
/// transparent. Frame 1 is a 4×4 blue square at (2, 2), straddling both halves; frame 2
/// is a 2×2 green square at (6, 6), after which frame 1's disposal shows.
@Suite struct WebPCompositingTests {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]
    static let green: [UInt8] = [0, 255, 0, 255]

    func makeFile(blend: BlendMode, dispose: DisposeMode, alpha: UInt8) throws -> Data {
        var base = WebPFixture.solid(8, 8, (0, 0, 0, 0))
        base.fill(PixelRect(x: 0, y: 0, width: 4, height: 8), with: (255, 0, 0, 255))
        return try WebPFixture.animation(
            canvas: PixelSize(width: 8, height: 8),
            frames: [
                .init(pixels: base, durationMs: 40),
                .init(
                    pixels: WebPFixture.solid(4, 4, (0, 0, 255, alpha)), x: 2, y: 2, durationMs: 50,
                    blend: blend, dispose: dispose),
                .init(pixels: WebPFixture.solid(2, 2, (0, 255, 0, 255)), x: 6, y: 6, durationMs: 60),
            ], backgroundColor: 0xFFFF_FFFF)  // opaque white: must be ignored
    }

    @Test(arguments: BlendMode.allCases, [DisposeMode.none, .background])
    func blendAndDispose(blend: BlendMode, dispose: DisposeMode) throws {
        for alpha: UInt8 in [255, 102] {
            let source = try WebPCoder().makeFrameSource(
                data: try makeFile(blend: blend, dispose: dispose, alpha: alpha),
                options: .default)
            let blue: [UInt8] = [0, 0, 255, alpha]
            // 40% blue over opaque red, on straight alpha, with libwebp's integer blend:
            // (152, 0, 101) where the exact maths give (0.6·255, 0, 0.4·255) = (153, 0, 102).
            let overRed: [UInt8] = alpha == 255 ? blue : [152, 0, 101, 255]
            let onRed = blend == .source ? blue : overRed
            // Over a transparent pixel libwebp's blend rescales the colour (255 → 254).
            let onClear: [UInt8] = blend == .source || alpha == 255 ? blue : [0, 0, 254, alpha]
            let f1 = try source.decodeFrame(at: 1)
            #expect(f1.pixel(x: 2, y: 2) == onRed, "blend \(blend) alpha \(alpha)")
            #expect(f1.pixel(x: 5, y: 5) == onClear)
            #expect(f1.pixel(x: 0, y: 0) == Self.red)
            #expect(f1.premultipliedPixel(x: 7, y: 7) == Self.clear)
            let f2 = try source.decodeFrame(at: 2)
            let disposedRed = dispose == .background ? Self.clear : onRed
            let disposedClear = dispose == .background ? Self.clear : onClear
            #expect(f2.premultipliedPixel(x: 2, y: 2) == PixelBuffer.premultiplied(disposedRed), "dispose \(dispose)")
            #expect(f2.premultipliedPixel(x: 5, y: 5) == PixelBuffer.premultiplied(disposedClear))
            #expect(f2.pixel(x: 1, y: 1) == Self.red)  // outside frame 1's rectangle
            #expect(f2.pixel(x: 6, y: 6) == Self.green)
            #expect(f2.pixel(x: 7, y: 7) == Self.green)
            // A fresh source seeking straight to frame 2 gives the same canvas.
            let seeker = try WebPCoder().makeFrameSource(
                data: try makeFile(blend: blend, dispose: dispose, alpha: alpha),
                options: .default)
            #expect(try seeker.decodeFrame(at: 2) == f2)
        }
    }

    @Test func everyPlayStartsFromATransparentCanvas() throws {
        // Frame 0 covers only the top-left quarter; after the last frame (which paints the
        // bottom-right), decoding frame 0 again must not show the last frame's pixels.
        let file = try WebPFixture.animation(
            canvas: PixelSize(width: 4, height: 4),
            frames: [
                .init(pixels: WebPFixture.solid(2, 2, (255, 0, 0, 255))),
                .init(pixels: WebPFixture.solid(2, 2, (0, 0, 255, 255)), x: 2, y: 2),
            ])
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        let first = try source.decodeFrame(at: 0)
        #expect(try source.decodeFrame(at: 1).pixel(x: 3, y: 3) == [0, 0, 255, 255])
        let again = try source.decodeFrame(at: 0)
        #expect(again == first)
        #expect(again.premultipliedPixel(x: 3, y: 3) == [0, 0, 0, 0])
    }

    @Test func lossyAndMixedFramesMatchLibwebp() throws {
        // Opaque lossy and lossless frames (mixed in one file): libwebp's animation decoder
        // and Zoetrope must agree exactly, since nothing is blended on partial alpha.
        var gradient = PixelBuffer(width: 32, height: 24)
        for y in 0..<24 { for x in 0..<32 { gradient.setPixel(x: x, y: y, [UInt8(x * 8), UInt8(y * 10), 90, 255]) } }
        let file = try WebPFixture.animation(
            canvas: PixelSize(width: 32, height: 24),
            frames: [
                .init(pixels: gradient, lossyQuality: 70),
                .init(pixels: WebPFixture.solid(10, 8, (10, 200, 30, 255)), x: 4, y: 6, dispose: .background),
                .init(pixels: WebPFixture.solid(12, 12, (200, 20, 30, 255)), x: 16, y: 10, lossyQuality: 50),
                .init(pixels: gradient, blend: .source, lossyQuality: 90),
            ])
        let reference = try WebPFixture.referenceFrames(file)
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(reference.count == 4)
        for i in 0..<4 {
            #expect(try source.decodeFrame(at: i).bytes == reference[i], "frame \(i)")
        }
    }

    @Test func lossyAlphaMatchesLibwebpExactly() throws {
        // ALPH + VP8 frames blended on partial alpha: Zoetrope blends WebP frames with
        // libwebp's own integer formula, so the frames match its animation decoder exactly.
        var a = PixelBuffer(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 { a.setPixel(x: x, y: y, [UInt8(x * 16), 80, UInt8(y * 16), UInt8(40 + x * 12)]) } }
        let file = try WebPFixture.animation(
            canvas: PixelSize(width: 16, height: 16),
            frames: [
                .init(pixels: a, lossyQuality: 80),
                .init(pixels: WebPFixture.solid(8, 8, (250, 250, 0, 128)), x: 4, y: 4, lossyQuality: 80),
            ])
        let reference = try WebPFixture.referenceFrames(file)
        let source = try WebPCoder().makeFrameSource(data: file, options: .default)
        #expect(source.info.hasAlpha == true)
        #expect(try source.decodeFrame(at: 0).bytes == reference[0])
        #expect(try source.decodeFrame(at: 1).bytes == reference[1])
    }
}
