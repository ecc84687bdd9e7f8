import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// The quantiser: exact when the colours fit, bounded error on a gradient, dithering modes.
@Suite struct ColorQuantizerTests {
    @Test func fewColoursComeBackExactly() {
        var h = ColorHistogram()
        var rng = SplitMix64(seed: 3)
        var colours = Set<UInt32>()
        while colours.count < 256 { colours.insert(PaletteMapper.pack(UInt8(rng.next() & 0xFF), UInt8(rng.next() & 0xFF), UInt8(rng.next() & 0xFF))) }
        for c in colours { h.add(c, weight: UInt32(rng.next() % 50 + 1)) }
        let palette = ColorQuantizer().palette(for: h, maxColours: 256)
        #expect(Set(palette) == colours)
    }

    /// A 256×64 RGB gradient (16,384 colours on a plane) to 255 colours: every pixel within
    /// 12 levels per channel, and a PSNR above 34.5 dB (255 equal cells of that plane give 34.9).
    @Test func gradientErrorIsBounded() {
        var h = ColorHistogram(expected: 20_000)
        var pixels: [UInt32] = []
        for y in 0..<64 {
            for x in 0..<256 {
                let c = PaletteMapper.pack(UInt8(x), UInt8(y * 4), UInt8(255 - x))
                pixels.append(c)
                h.add(c)
            }
        }
        let palette = ColorQuantizer().palette(for: h, maxColours: 255)
        #expect(palette.count <= 255)
        var mapper = PaletteMapper(palette: palette)
        var worst = 0, squared = 0.0
        for c in pixels {
            let p = palette[Int(mapper.nearest(c))]
            for shift: UInt32 in [0, 8, 16] {
                let d = abs(Int(c >> shift & 0xFF) - Int(p >> shift & 0xFF))
                worst = max(worst, d)
                squared += Double(d * d)
            }
        }
        let psnr = 10 * log10(255 * 255 / (squared / Double(pixels.count * 3)))
        #expect(worst <= 12, "worst channel error \(worst)")
        #expect(psnr > 34.5, "PSNR \(psnr)")
    }

    @Test(arguments: GIFDither.allCases)
    func quantisedFramesDecodeCloseToTheSource(dither: GIFDither) throws {
        let c = GIFEncoderTests.canvas(64, 32) { x, y in [UInt8(x * 4), UInt8(y * 8), UInt8((x + y) * 2), 255] }
        let data = try GIFEncoderTests.encode([c], dither: dither)
        let decoded = try GIFCoder().makeFrameSource(data: data, options: .default).decodeFrame(at: 0)
        let errors = zip(decoded.bytes, c.bytes).map { abs(Int($0) - Int($1)) }
        let mean = Double(errors.reduce(0, +)) / Double(errors.count)
        // Ordered dithering adds its pattern (±16 levels) on purpose.
        #expect(mean < (dither == .ordered ? 8 : 4), "mean error \(mean) with \(dither)")
        #expect(errors.max()! <= 40)
    }

    @Test func lzwEstimateIsCloseToGiflibsOutput() throws {
        // A frame of one flat colour compresses to a handful of bytes; noise to about 1 byte a pixel.
        let flat = [UInt8](repeating: 3, count: 10_000)
        #expect(LZWSizeEstimator.byteCount(flat, minimumCodeSize: 2) < 300)
        var rng = SplitMix64(seed: 1)
        let noise = (0..<10_000).map { _ in UInt8(rng.next() & 0xFF) }
        let n = LZWSizeEstimator.byteCount(noise, minimumCodeSize: 8)
        #expect(n > 10_000 && n < 14_500)
    }
}
