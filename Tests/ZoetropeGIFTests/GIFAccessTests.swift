import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// Output options, session memory and the registry (random access, buffer reuse and
/// out-of-range errors: `GIFContractTests`).
@Suite struct GIFAccessTests {
    typealias F = GIFFixture

    @Test func downsamplesToTheTargetSize() throws {
        // 4×4: red, green / blue, white quadrants.
        let q: [UInt8] = [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 0, 0, 3, 3, 0, 0]
        var w = GIFWriter(width: 4, height: 4, globalColors: [F.white, F.red, F.green, F.blue])
        w.image(width: 4, height: 4, indices: q)
        let source = try F.source(w.file, options: DecodingOptions(targetSize: PixelSize(width: 2, height: 50)))
        #expect(source.outputSize == PixelSize(width: 2, height: 2))
        let frame = try source.decodeFrame(at: 0)
        #expect(F.pixels(frame) == [F.opaqueRed, F.opaqueGreen, F.opaqueBlue, F.opaqueWhite])
    }

    @Test func premultipliedOutputClearsTransparentColour() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.graphicControl(transparentIndex: 0)
        w.image(width: 2, height: 1, indices: [0, 3])
        let source = try F.source(w.file, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.format == .rgba8Premultiplied)
        #expect(F.pixels(frame) == [F.transparent, F.opaqueBlue])
    }

    @Test func sessionMemoryStaysAtTheCanvasWhileDecoding() throws {
        var w = GIFWriter(width: 32, height: 32, globalColors: F.palette)
        for i in 0..<40 {
            w.graphicControl(disposal: 3)
            w.image(x: i % 8, y: i % 5, width: 24, height: 24, indices: [UInt8](repeating: UInt8(i % 4), count: 576))
        }
        let source = try F.source(w.file)
        var buffer = PixelBuffer()
        for i in 0..<source.info.frameCount { try source.decodeFrame(at: i, into: &buffer) }
        let canvas = 32 * 32 * 4
        #expect(source.retainedByteCount <= 2 * canvas + 8 * 1024)
    }

    @Test func registryPicksTheGIFCoderFromContent() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        w.image(width: 1, height: 1, indices: [2])
        let registry = CoderRegistry(builtIn: [GIFCoder()])
        let source = try registry.makeFrameSource(data: .init(w.file))
        #expect(source.info.format == .gif)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueGreen])
        #expect(try registry.isAnimated(.init(w.file)) == false)
    }
}
