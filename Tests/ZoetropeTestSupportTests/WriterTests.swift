import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeGIF
import ZoetropeTestSupport

/// The fixture writers write files the coders read as described: exact pixels, delays and
/// plays.
@Suite struct WriterTests {
    @Test func gifWriterWritesADecodableAnimation() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: [(255, 0, 0), (0, 0, 255)])
        w.loop(2)
        w.graphicControl(delay: 7)
        w.image(width: 2, height: 1, indices: [0, 1])
        w.graphicControl(delay: 9)
        w.image(x: 1, width: 1, height: 1, indices: [0])
        let source = try GIFCoder().makeFrameSource(data: Data(w.file), options: .default)
        #expect(source.info.canvasSize == PixelSize(width: 2, height: 1))
        #expect(source.info.frameDurations == [.milliseconds(70), .milliseconds(90)])
        #expect(source.info.loopCount == .plays(3))  // NETSCAPE 2: two repeats after the first play
        #expect(try source.decodeFrame(at: 0).bytes == [255, 0, 0, 255, 0, 0, 255, 255])
        #expect(try source.decodeFrame(at: 1).bytes == [255, 0, 0, 255, 255, 0, 0, 255])
    }

    @Test func apngWriterWritesADecodableAnimation() throws {
        let red: [UInt8] = [255, 0, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
        let data = APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, red, delayNumerator: 1, delayDenominator: 20),
                .solid(x: 1, y: 1, width: 1, height: 1, clear, delayNumerator: 3, delayDenominator: 100),
            ],
            plays: 4
        ).data
        let source = try APNGCoder().makeFrameSource(data: data, options: .default)
        #expect(source.info.frameDurations == [.milliseconds(50), .milliseconds(30)])
        #expect(source.info.loopCount == .plays(4))
        #expect(try source.decodeFrame(at: 0).bytes == red + red + red + red)
        // Blend SOURCE replaces the pixel, alpha too.
        #expect(try source.decodeFrame(at: 1).bytes == red + red + red + clear)
    }

    @Test func apngWriterWritesADecodableStill() throws {
        let rgba: [UInt8] = [1, 2, 3, 255, 4, 5, 6, 128]
        let source = try APNGCoder().makeFrameSource(data: APNGWriter.stillPNG(width: 2, height: 1, rgba: rgba), options: .default)
        #expect(source.info.frameCount == 1)
        #expect(try source.decodeFrame(at: 0).bytes == rgba)
    }

    /// Every generated compositing case decodes to its own reference frames, as a GIF and
    /// as an APNG.
    @Test(arguments: CompositingCase.generated(random: 8))
    func compositingCasesDecodeToTheirReference(_ c: CompositingCase) throws {
        #expect(try c.framesDifferingFromTheReference(coder: GIFCoder(), data: c.gif, apng: false) == [])
        #expect(try c.framesDifferingFromTheReference(coder: APNGCoder(), data: c.apng, apng: true) == [])
    }

    @Test func packageRootHoldsThePackage() {
        let root = CorpusLocation.packageRoot
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Tests/ZoetropeTestSupport").path))
    }
}
