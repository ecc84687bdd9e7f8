import Testing
import Zoetrope

@Suite struct PixelBufferTests {
    @Test func bytesCanBeWrittenInPlaceOrReplacedAtTheSameLength() {
        var b = PixelBuffer(width: 2, height: 2, bytesPerRow: 12)
        b.bytes.withUnsafeMutableBytes { $0[12 + 4] = 7 }
        #expect(b.pixel(x: 1, y: 1) == [7, 0, 0, 0])
        b.bytes = [UInt8](repeating: 9, count: 24)
        #expect(b.pixel(x: 0, y: 1) == [9, 9, 9, 9])
        #expect(b.bytesPerRow == 12 && b.byteCount == 24)
    }

    @Test func bytesThatWouldBreakTheStrideStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var b = PixelBuffer(width: 2, height: 2)
            b.bytes.append(0)
        }
        await #expect(processExitsWith: .failure) {
            var b = PixelBuffer(width: 2, height: 2)
            b.bytes = [0, 0, 0, 0]
        }
    }

    @Test func reshapeReusesStorageAndKeepsStride() {
        var b = PixelBuffer(width: 4, height: 4, bytesPerRow: 20)
        #expect(b.byteCount == 80)
        b.reshape(width: 2, height: 2, clear: true)
        #expect(b.bytesPerRow == 8 && b.byteCount == 16)
        b.setPixel(x: 1, y: 1, [1, 2, 3, 4])
        #expect(b.pixel(x: 1, y: 1) == [1, 2, 3, 4])
    }

    @Test func downsamplingAveragesPremultipliedSoTransparencyDoesNotBleed() {
        var src = PixelBuffer(width: 2, height: 2)
        src.setPixel(x: 0, y: 0, [255, 0, 0, 255])
        src.setPixel(x: 1, y: 0, [0, 255, 0, 0])  // transparent green must not tint the result
        src.setPixel(x: 0, y: 1, [255, 0, 0, 255])
        src.setPixel(x: 1, y: 1, [0, 0, 0, 0])
        var out = PixelBuffer()
        src.copy(into: &out, size: PixelSize(width: 1, height: 1), format: .rgba8)
        #expect(out.pixel(x: 0, y: 0) == [255, 0, 0, 128])
        src.copy(into: &out, size: PixelSize(width: 1, height: 1), format: .rgba8Premultiplied)
        #expect(out.pixel(x: 0, y: 0) == [128, 0, 0, 128])
    }

    @Test func copyAtFullSizeIsExactAndHonoursStride() {
        var src = PixelBuffer(width: 2, height: 1, bytesPerRow: 12)
        src.setPixel(x: 0, y: 0, [9, 8, 7, 6])
        var out = PixelBuffer(width: 7, height: 7)
        src.copy(into: &out, size: src.size, format: .rgba8)
        #expect(out.size == src.size && out.bytesPerRow == 8)
        #expect(out.packedBytes == [9, 8, 7, 6, 0, 0, 0, 0])
    }

    @Test func premultiplyRoundTripsOpaqueAndTransparentExactly() {
        var b = PixelBuffer(width: 3, height: 1)
        b.setPixel(x: 0, y: 0, [10, 20, 30, 255])
        b.setPixel(x: 1, y: 0, [200, 100, 50, 0])
        b.setPixel(x: 2, y: 0, [200, 100, 50, 128])
        b.premultiplyAlpha()
        #expect(b.format == .rgba8Premultiplied)
        #expect(b.packedBytes == [10, 20, 30, 255, 0, 0, 0, 0, 100, 50, 25, 128])
        b.unpremultiplyAlpha()
        #expect(b.packedBytes == [10, 20, 30, 255, 0, 0, 0, 0, 199, 100, 50, 128])
    }
}
