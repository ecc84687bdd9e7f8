import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// Random access, output options and the registry.
@Suite struct GIFAccessTests {
    typealias F = GIFFixture

    /// Twelve 6×4 frames mixing every disposal, transparency and two canvas-clearing
    /// points, so seeking restarts from different frames.
    static func mixedAnimation() -> [UInt8] {
        var w = GIFWriter(width: 6, height: 4, globalColors: F.palette)
        w.loop(0)
        var generator = SplitMix64(seed: 3)
        for i in 0..<12 {
            let x = Int(generator.next() % 4), y = Int(generator.next() % 3)
            let width = i % 5 == 0 ? 6 : 2, height = i % 5 == 0 ? 4 : 2
            let fx = width == 6 ? 0 : x, fy = height == 4 ? 0 : y
            let disposal = [1, 2, 3, 0][i % 4]
            w.graphicControl(delay: 5 + i, disposal: disposal, transparentIndex: i % 3 == 1 ? 0 : nil)
            w.image(x: fx, y: fy, width: width, height: height,
                    indices: (0..<width * height).map { _ in UInt8(generator.next() % 4) })
        }
        return w.file
    }

    @Test func randomAccessMatchesSequentialDecoding() throws {
        let file = Self.mixedAnimation()
        let sequential = try F.frames(file)
        let source = try F.source(file)
        for i in [7, 3, 11, 0, 5, 5, 10, 1, 9, 2, 8, 4, 6] {
            #expect(try source.decodeFrame(at: i) == sequential[i], "frame \(i)")
        }
    }

    @Test func reusedAndKeptBuffersHoldTheirOwnFrames() throws {
        let file = Self.mixedAnimation()
        let expected = try F.frames(file)
        let source = try F.source(file)
        // One buffer passed back every time (the streaming path).
        var reused = PixelBuffer()
        for i in 0..<expected.count {
            try source.decodeFrame(at: i, into: &reused)
            #expect(reused == expected[i], "frame \(i)")
        }
        // A frame the caller keeps never changes when later frames decode, into any buffer.
        let kept = reused
        var other = PixelBuffer(width: 3, height: 3)
        try source.decodeFrame(at: 0, into: &other)
        try source.decodeFrame(at: 1, into: &reused)
        try source.decodeFrame(at: 2, into: &other)
        #expect(kept == expected[11])
        #expect(reused == expected[1])
        #expect(other == expected[2])
    }

    @Test func frameOutOfRangeIsTyped() throws {
        let source = try F.source(Self.mixedAnimation())
        #expect(F.error { _ = try source.decodeFrame(at: 12) } == .frameOutOfRange(index: 12, frameCount: 12))
        #expect(F.error { _ = try source.decodeFrame(at: -1) } == .frameOutOfRange(index: -1, frameCount: 12))
    }

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
