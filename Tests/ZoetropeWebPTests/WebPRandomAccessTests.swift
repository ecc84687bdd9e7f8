import Foundation
import Testing
import Zoetrope
@testable import ZoetropeWebP

/// Key frames are found when indexing, and seeking decodes only from the nearest one.
@Suite struct WebPRandomAccessTests {
    /// Key frames at 0 (first), 3 (full canvas, no blend) and 6 (frame 5 covers the canvas
    /// and is disposed to background). Frame 1 covers the canvas but blends with alpha: not key.
    static func makeFile() throws -> Data {
        let size = PixelSize(width: 6, height: 6)
        func solid(_ w: Int, _ h: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) -> PixelBuffer { WebPFixture.solid(w, h, c) }
        return try WebPFixture.animation(canvas: size, frames: [
            .init(pixels: solid(6, 6, (200, 0, 0, 255))),
            .init(pixels: solid(6, 6, (0, 0, 200, 100))),
            .init(pixels: solid(2, 2, (0, 200, 0, 255)), x: 2, y: 2),
            .init(pixels: solid(6, 6, (10, 20, 30, 90)), blend: .source),
            .init(pixels: solid(4, 2, (50, 60, 70, 255)), x: 0, y: 4),
            .init(pixels: solid(6, 6, (90, 90, 0, 128)), dispose: .background),
            .init(pixels: solid(2, 4, (0, 90, 90, 200)), x: 4, y: 0),
            .init(pixels: solid(2, 2, (255, 255, 255, 60)), x: 2, y: 2),
        ])
    }

    @Test func keyFramesAreFoundWhenIndexing() throws {
        let index = try WebPFrameIndex(data: try Self.makeFile(), limits: .default)
        #expect(index.frames.map(\.isKeyFrame) == [true, false, false, true, false, false, true, false])
        #expect(index.frames.map(\.keyFrameIndex) == [0, 0, 0, 3, 3, 3, 6, 6])
        #expect(try WebPCoder().keyFrameIndices(in: try Self.makeFile()) == [0, 3, 6])
    }

    @Test func seekingDecodesFromTheNearestKeyFrameOrTheCurrentFrame() throws {
        let source = try #require(try WebPCoder().makeFrameSource(data: try Self.makeFile(), options: .default) as? WebPFrameSource)
        #expect(source.framesToDecode(for: 5) == 3) // 3, 4, 5
        _ = try source.decodeFrame(at: 5)
        #expect(source.framesToDecode(for: 5) == 0)
        #expect(source.framesToDecode(for: 7) == 2) // 6, 7: the key frame is nearer than going on from 5
        #expect(source.framesToDecode(for: 4) == 2) // backwards: 3, 4
        _ = try source.decodeFrame(at: 6)
        #expect(source.framesToDecode(for: 7) == 1) // sequential: just 7
        #expect(source.framesToDecode(for: 0) == 1)
        #expect(source.framesToDecode(for: 2) == 3)
    }

    @Test func anyOrderGivesTheSequentialFrames() throws {
        let file = try Self.makeFile()
        let sequential = try WebPCoder().makeFrameSource(data: file, options: .default)
        let expected = try (0..<8).map { try sequential.decodeFrame(at: $0) }
        let order = [7, 2, 5, 5, 0, 6, 1, 4, 3, 7, 0, 2, 6, 3, 1]
        let seeker = try WebPCoder().makeFrameSource(data: file, options: .default)
        var buffer = PixelBuffer()
        for i in order {
            try seeker.decodeFrame(at: i, into: &buffer)
            #expect(buffer == expected[i], "frame \(i)")
        }
        // A spot check that the frames differ, so the comparison above means something.
        #expect(expected[3].pixel(x: 0, y: 0) == [10, 20, 30, 90])
        #expect(expected[6].pixel(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(expected[6].pixel(x: 4, y: 0) == [0, 90, 90, 200])
    }

    @Test func memoryIsOneCanvasPlusOneScratchFrame() throws {
        let source = try WebPCoder().makeFrameSource(data: try Self.makeFile(), options: .default)
        for i in 0..<8 { _ = try source.decodeFrame(at: i) }
        // 6×6 canvas + the largest blending frame (6×6): 2 × 144 bytes.
        #expect(source.retainedByteCount == 2 * 144)
    }
}
