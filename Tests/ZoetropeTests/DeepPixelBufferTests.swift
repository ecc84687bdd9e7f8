import Testing

@testable import Zoetrope

/// RGBA16 buffers: depth conversion, alpha modes, and copies between depths.
@Suite struct DeepPixelBufferTests {
    @Test func narrowingRoundsToNearestAndWideningIsExact() {
        var deep = PixelBuffer(width: 256, height: 1, format: .rgba16)
        for v in 0..<256 {
            deep.setPixel16(x: v, y: 0, [UInt16(v * 257), UInt16(min(65_535, v * 257 + 128)), UInt16(max(0, v * 257 - 129)), 65_535])
        }
        let eight = deep.converted(to: .eight)
        #expect(eight.format == .rgba8)
        for v in 0..<256 {
            let p = eight.pixel(x: v, y: 0)
            #expect(p[0] == UInt8(v))
            // 128/257 of a step above v rounds to v; 129/257 below rounds down a step.
            #expect(p[1] == UInt8(v))
            #expect(p[2] == UInt8(v == 0 ? 0 : v - 1))
        }
        let widened: [UInt16] = [51_400, 51_400, 51_143, 65_535]  // 200 × 257, 199 × 257
        #expect(eight.converted(to: .sixteen).pixel16(x: 200, y: 0) == widened)
        #expect(PixelFormat.rgba16.bytesPerPixel == 8)
        #expect(PixelFormat.rgba16Premultiplied.description == "RGBA16 (premultiplied)")
    }

    @Test func premultiplyAndBackAtSixteenBits() {
        var b = PixelBuffer(width: 2, height: 1, format: .rgba16)
        b.setPixel16(x: 0, y: 0, [60_000, 30_000, 1_000, 32_768])
        b.setPixel16(x: 1, y: 0, [5, 6, 7, 0])
        b.premultiplyAlpha()
        #expect(b.format == .rgba16Premultiplied)
        #expect(b.pixel16(x: 0, y: 0) == [30_000, 15_000, 500, 32_768])
        #expect(b.pixel16(x: 1, y: 0) == [0, 0, 0, 0])
        b.unpremultiplyAlpha()
        #expect(b.format == .rgba16)
        #expect(b.pixel16(x: 0, y: 0) == [59_999, 30_000, 1_000, 32_768])  // 30,000 × 65,535 / 32,768 = 59,999.08
        #expect(b.isOpaque == false)
        var opaque = PixelBuffer(width: 1, height: 1, format: .rgba16)
        opaque.setPixel16(x: 0, y: 0, [1, 2, 3, 65_535])
        #expect(opaque.isOpaque)
        opaque.setPixel16(x: 0, y: 0, [1, 2, 3, 65_280])  // high byte 255, low byte 0
        #expect(!opaque.isOpaque)
    }

    @Test func fillWidensIntoAnRGBA16Buffer() {
        var b = PixelBuffer(width: 3, height: 2, format: .rgba16)
        b.fill(PixelRect(x: 1, y: 0, width: 5, height: 1), with: (1, 2, 255, 128))
        #expect(b.pixel16(x: 1, y: 0) == [257, 514, 65_535, 32_896])
        #expect(b.pixel16(x: 2, y: 0) == [257, 514, 65_535, 32_896])
        #expect(b.pixel16(x: 0, y: 0) == [0, 0, 0, 0] && b.pixel16(x: 1, y: 1) == [0, 0, 0, 0])
    }

    @Test func anRGBA8CanvasCopiedToRGBA16IsWidened() {
        var canvas = PixelBuffer(width: 4, height: 2)
        for x in 0..<4 { for y in 0..<2 { canvas.setPixel(x: x, y: y, [UInt8(x * 60), UInt8(y * 99), 7, UInt8(255 - x * 50)]) } }
        var out = PixelBuffer()
        canvas.copy(into: &out, size: canvas.size, format: .rgba16)
        #expect(out.format == .rgba16)
        #expect(out.packedBytes == canvas.converted(to: .sixteen).packedBytes)
        canvas.copy(into: &out, size: canvas.size, format: .rgba16Premultiplied)
        var expected = canvas.converted(to: .sixteen)
        expected.premultiplyAlpha()
        #expect(out.packedBytes == expected.packedBytes)
    }

    @Test func aDeepCompositorDisposesAndRestoresSixteenBitPixels() {
        var c = Compositor(size: PixelSize(width: 3, height: 3), holdsDrawnAreaOnly: true, channelDepth: .sixteen)
        let full = PixelRect(x: 0, y: 0, width: 3, height: 3)
        var base = PixelBuffer(width: 3, height: 3, format: .rgba16)
        for y in 0..<3 { for x in 0..<3 { base.setPixel16(x: x, y: y, [UInt16(x * 20_000 + 1), UInt16(y * 20_000 + 3), 9, 65_535]) } }
        c.beginFrame(rect: full, dispose: .none)
        base.bytes.withUnsafeBytes { c.draw($0, bytesPerRow: base.bytesPerRow, rect: full, blend: .source) }
        let patch = PixelRect(x: 1, y: 1, width: 2, height: 1)
        var p = PixelBuffer(width: 2, height: 1, format: .rgba16)
        p.setPixel16(x: 0, y: 0, [65_535, 0, 0, 65_535])
        p.setPixel16(x: 1, y: 0, [65_535, 0, 0, 65_535])
        c.beginFrame(rect: patch, dispose: .previous)
        p.bytes.withUnsafeBytes { c.draw($0, bytesPerRow: p.bytesPerRow, rect: patch, blend: .over) }
        var out = PixelBuffer()
        c.copyCanvas(into: &out, format: .rgba16)
        #expect(out.pixel16(x: 1, y: 1) == [65_535, 0, 0, 65_535])
        #expect(out.pixel16(x: 0, y: 1) == base.pixel16(x: 0, y: 1))
        c.beginFrame(rect: PixelRect(x: 0, y: 0, width: 1, height: 1), dispose: .background)
        c.copyCanvas(into: &out, format: .rgba16)
        #expect(out.packedBytes == base.packedBytes, "dispose to previous restored the 16-bit pixels")
    }
}
