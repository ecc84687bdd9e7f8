import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

/// A play count past what a format stores is written as the nearest it stores (its most),
/// with a warning from the tool, instead of failing the conversion.
@Suite struct LoopCountRangeTests {
    /// A 2×1 GIF of two frames whose NETSCAPE block stores 65535: 65,536 plays.
    static func gif65536Plays() -> Data {
        var w = GIFWriter(width: 2, height: 1, globalColors: [(255, 0, 0), (0, 0, 255)])
        w.loop(65535)
        w.graphicControl(delay: 10)
        w.image(width: 2, height: 1, indices: [0, 1])
        w.graphicControl(delay: 10)
        w.image(width: 2, height: 1, indices: [1, 0])
        w.trailer()
        return Data(w.bytes)
    }

    static func twoFrames() -> [EncodingFrame] {
        var a = PixelBuffer(width: 2, height: 1), b = PixelBuffer(width: 2, height: 1)
        a.bytes = [255, 0, 0, 255, 0, 0, 255, 255]
        b.bytes = [0, 0, 255, 255, 255, 0, 0, 255]
        return [EncodingFrame(pixels: a, duration: .milliseconds(100)), EncodingFrame(pixels: b, duration: .milliseconds(100))]
    }

    @Test func theToolWritesAGIFOf65536PlaysAsAWebPOf65535AndWarns() throws {
        let input = Self.gif65536Plays()
        #expect(try ConvertFixtures.decode(input).info.loopCount == .plays(65536))
        let (run, output, dir) = try ConvertFixtures.convert(input, inName: "many.gif", outName: "many.webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "warning: \(dir.appendingPathComponent("many.webp").path): webp stores at most 65535 plays; writing 65535 instead of 65536"),
            "\(run.stderr)")
        let decoded = try ConvertFixtures.decode(try #require(output))
        #expect(decoded.info.loopCount == .plays(65535))
        #expect(decoded.info.frameCount == 2)

        // Formats that store 65,536 plays keep them, without a warning.
        for ext in ["gif", "png", "avif"] {
            let (r, out, d) = try ConvertFixtures.convert(input, inName: "many.gif", outName: "many.\(ext)")
            defer { try? FileManager.default.removeItem(at: d) }
            #expect(r.status == 0 && !r.stderr.contains("warning"), "\(ext): \(r.stderr)")
            #expect(try ConvertFixtures.decode(try #require(out)).info.loopCount == .plays(65536), "\(ext)")
        }
    }

    @Test func everyEncoderStoresItsNearestPlayCount() throws {
        let size = PixelSize(width: 2, height: 1)
        let cases: [(any AnimatedImageEncoder, asked: Int, stored: Int)] = [
            (GIFEncoder(), 70000, 65536),
            (WebPEncoder(), 70000, 65535),
            (APNGEncoder(), Int(UInt32.max) + 10, Int(UInt32.max)),
        ]
        for (encoder, asked, stored) in cases {
            #expect(encoder.storedLoopCount(for: .plays(asked)) == .plays(stored))
            #expect(encoder.storedLoopCount(for: .plays(stored)) == .plays(stored))
            #expect(encoder.storedLoopCount(for: .infinite) == .infinite)
            let file = try encoder.encode(Self.twoFrames(), canvasSize: size, options: EncodingOptions(loopCount: .plays(asked)))
            #expect(try ConvertFixtures.decode(file).info.loopCount == .plays(stored), "\(encoder.encodingFormat)")
        }
    }
}
