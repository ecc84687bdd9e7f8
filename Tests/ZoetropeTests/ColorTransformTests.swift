import Testing
import Zoetrope

/// The core's one conversion point: what leaves a compositor passes its `colorTransform`
/// once, after downsampling and before premultiplying; the canvas keeps the stored values.
@Suite struct ColorTransformTests {
    /// Halves red and records how many pixels it saw.
    final class HalveRed: ColorTransform, @unchecked Sendable {
        var pixels = 0
        func convert(_ p: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
            pixels += width * height
            for y in 0..<height {
                let row = (p + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width { row[x * 4] /= 2 }
            }
        }
    }

    /// Red above 150 becomes 255, the rest 0: applied to premultiplied values it would give 0.
    final class ThresholdRed: ColorTransform {
        func convert(_ p: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
            for y in 0..<height {
                let row = (p + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width { row[x * 4] = row[x * 4] > 150 ? 255 : 0 }
            }
        }
    }

    static func compositor(_ rgba: [UInt8], _ transform: (any ColorTransform)?) -> Compositor {
        var c = Compositor(size: PixelSize(width: 4, height: 4), colorTransform: transform)
        let pixels = Array([[UInt8]](repeating: rgba, count: 16).joined())
        c.beginFrame(rect: c.bounds, dispose: .none)
        pixels.withUnsafeBytes { c.draw($0, bytesPerRow: 16, rect: c.bounds, blend: .source) }
        return c
    }

    @Test func straightFullSizeIsConvertedAndTheCanvasKeepsTheStoredValues() {
        let t = HalveRed()
        let c = Self.compositor([200, 10, 20, 255], t)
        var out = PixelBuffer()
        c.copyCanvas(into: &out, format: .rgba8)
        #expect(out.bytes == Array([[UInt8]](repeating: [100, 10, 20, 255], count: 16).joined()))
        #expect(c.canvas.bytes[0] == 200)
        #expect(t.pixels == 16)
    }

    @Test func premultipliedIsConvertedFirst() {
        let c = Self.compositor([200, 10, 20, 128], ThresholdRed())
        var out = PixelBuffer()
        c.copyCanvas(into: &out, format: .rgba8Premultiplied)
        // Straight red 200 → 255, then premultiplied: (255·128 + 127) / 255 = 128. Converting the
        // premultiplied 100 would give 0.
        #expect(out.format == .rgba8Premultiplied)
        #expect(Array(out.bytes[0..<4]) == [128, 5, 10, 128])
    }

    @Test func downsampledOutputIsConvertedOnceAtItsOwnSize() {
        let t = HalveRed()
        let c = Self.compositor([200, 10, 20, 255], t)
        var out = PixelBuffer()
        c.copyCanvas(into: &out, size: PixelSize(width: 2, height: 2), format: .rgba8)
        #expect(out.bytes == Array([[UInt8]](repeating: [100, 10, 20, 255], count: 4).joined()))
        #expect(t.pixels == 4)
    }

    @Test func noTransformIsTheOldCopy() {
        let c = Self.compositor([200, 10, 20, 128], nil)
        for format in [PixelFormat.rgba8, .rgba8Premultiplied] {
            var a = PixelBuffer(), b = PixelBuffer()
            c.copyCanvas(into: &a, size: PixelSize(width: 3, height: 3), format: format)
            c.canvas.copy(into: &b, size: PixelSize(width: 3, height: 3), format: format)
            #expect(a == b)
        }
    }
}
