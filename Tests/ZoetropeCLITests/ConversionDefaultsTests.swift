import Foundation
import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

/// The defaults an application meets when it converts with the API.
@Suite struct ConversionDefaultsTests {
    /// A 2×1 GIF of two opaque frames without a loop block: one play.
    static func onePlayGIF() -> Data {
        var w = GIFWriter(width: 2, height: 1, globalColors: [(255, 0, 0), (0, 0, 255)])
        w.graphicControl(delay: 10)
        w.image(width: 2, height: 1, indices: [0, 1])
        w.graphicControl(delay: 10)
        w.image(width: 2, height: 1, indices: [1, 0])
        w.trailer()
        return Data(w.bytes)
    }

    @Test func optionsGivenForQualityAloneKeepTheSourcesPlays() throws {
        let image = try AnimatedImage(data: Self.onePlayGIF(), registry: ConvertFixtures.registry)
        #expect(image.info.loopCount == .once)
        let lossy = try image.encoded(with: WebPEncoder(), options: EncodingOptions(quality: 80))
        #expect(try ConvertFixtures.decode(lossy).info.loopCount == .once)
        let threePlays = try image.encoded(with: WebPEncoder(), options: EncodingOptions(loopCount: .plays(3), quality: 80))
        #expect(try ConvertFixtures.decode(threePlays).info.loopCount == .plays(3))
        // A writer opened without a source plays forever unless told otherwise.
        #expect(EncodingOptions(quality: 80).loopCount == nil)
        let writer = try GIFEncoder().makeWriter(canvasSize: PixelSize(width: 2, height: 1), options: EncodingOptions(quality: 80))
        for frame in try ConvertFixtures.decode(Self.onePlayGIF()).frames {
            try writer.add(EncodingFrame(pixels: frame, duration: .milliseconds(100)))
        }
        #expect(try ConvertFixtures.decode(try writer.finish()).info.loopCount == .infinite)
    }
}

/// `AVIFEncoder()` and `zoetrope convert` share one set of AVIF defaults.
@Suite struct AVIFDefaultsTests {
    @Test func theAPIsDefaultsAreTheTools() throws {
        #expect(AVIFEncoder().chroma == .yuv444)
        #expect(AVIFEncoder(codec: "svt").chroma == .yuv420)
        #expect(AVIFEncoder(chroma: .yuv420).chroma == .yuv420)
        #expect(AVIFEncoder.defaultQuality == 70)

        let image = try AnimatedImage(data: ConvertFixtures.gif(), registry: ConvertFixtures.registry)
        let api = try image.encoded(with: AVIFEncoder(), options: EncodingOptions(quality: AVIFEncoder.defaultQuality))
        let (run, tool, dir) = try ConvertFixtures.convert(ConvertFixtures.gif(), inName: "in.gif", outName: "out.avif", ["--quiet"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0)
        // Same settings give the same bytes (a sequence stores no clock time).
        #expect(try #require(tool) == api)
    }
}

/// An AVIF made from frames that are all opaque carries no alpha (item or track).
@Suite struct OpaqueAVIFTests {
    static func hasAlphaBoxes(_ file: Data) -> Bool {
        let needle = Array("auxC".utf8), bytes = [UInt8](file)
        return bytes.indices.dropLast(3).contains { Array(bytes[$0..<($0 + 4)]) == needle }
    }

    @Test func anOpaqueGIFBecomesAnAVIFWithoutAlphaThroughTheAPIAndTheTool() throws {
        let gif = ConversionDefaultsTests.onePlayGIF()
        let image = try AnimatedImage(data: gif, registry: ConvertFixtures.registry)
        let api = try image.encoded(with: AVIFEncoder(speed: 10), options: EncodingOptions(quality: 60))
        #expect(!Self.hasAlphaBoxes(api))
        let decoded = try ConvertFixtures.decode(api)
        #expect(decoded.info.hasAlpha == false)
        #expect(decoded.info.frameCount == 2)
        #expect(decoded.frames.allSatisfy { $0.isOpaque })

        let (run, tool, dir) = try ConvertFixtures.convert(gif, inName: "opaque.gif", outName: "opaque.avif", ["--quiet", "--speed", "10"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0)
        let file = try #require(tool)
        #expect(!Self.hasAlphaBoxes(file))
        #expect(try ConvertFixtures.decode(file).info.hasAlpha == false)
    }

    @Test func framesWithTransparencyKeepTheirAlpha() throws {
        let image = try AnimatedImage(data: ConvertFixtures.gif(), registry: ConvertFixtures.registry)
        let avif = try image.encoded(with: AVIFEncoder(speed: 10), options: EncodingOptions(quality: 60))
        #expect(Self.hasAlphaBoxes(avif))
        #expect(try ConvertFixtures.decode(avif).info.hasAlpha == true)
    }

    @Test func aFrameThatIsNotOpaqueIsRefusedWhenTheOptionsSayAllAre() throws {
        let writer = try AVIFEncoder(speed: 10).makeWriter(
            canvasSize: PixelSize(width: 2, height: 1),
            options: EncodingOptions(quality: 60, framesAreOpaque: true))
        var pixels = PixelBuffer(width: 2, height: 1)
        pixels.bytes = [255, 0, 0, 255, 0, 0, 255, 254]
        #expect(throws: AnimatedImageError.invalidArgument("frame 0 is not opaque, but the options say every frame is")) {
            try writer.add(EncodingFrame(pixels: pixels, duration: .milliseconds(100)))
        }
    }
}
