import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// What seeking costs in a GIF: only the frames since the nearest key frame.
@Suite struct GIFSeekCostTests {
    typealias F = GIFFixture

    /// Ten 4×4 frames: 2×2 patches with a transparent index, except frame 6, which covers
    /// the canvas opaquely (a key frame).
    static func file() -> [UInt8] {
        var w = GIFWriter(width: 4, height: 4, globalColors: F.palette)
        for i in 0..<10 {
            if i == 6 {
                w.graphicControl(delay: 10)
                w.image(width: 4, height: 4, indices: [UInt8](repeating: 3, count: 16))
            } else {
                w.graphicControl(delay: 10, transparentIndex: 0)
                w.image(x: i % 3, y: i % 2, width: 2, height: 2, indices: [UInt8(1 + i % 2), 0, 2, UInt8(1 + i % 3)])
            }
        }
        return w.file
    }

    @Test func forwardSeekDecodesOnlyTheFramesSinceTheNearestKeyFrame() throws {
        let expected = try F.frames(Self.file())
        let source = try #require(try F.source(Self.file()) as? any SeekCostReporting)
        #expect(source.restartFrame(for: 8) == 6)
        _ = try source.decodeFrame(at: 1)
        let before = source.decodedFrameCount
        // From frame 1, going on would decode 2…8 (seven frames); from key frame 6 it is 6, 7, 8.
        #expect(try source.decodeFrame(at: 8) == expected[8])
        #expect(source.decodedFrameCount - before == 3)
        // Forward within reach of the current frame continues from it.
        #expect(try source.decodeFrame(at: 9) == expected[9])
        #expect(source.decodedFrameCount - before == 4)
        // Forward from before the key frame, but closer than it: continue (2, 3, 4, 5).
        _ = try source.decodeFrame(at: 1)
        let again = source.decodedFrameCount
        #expect(try source.decodeFrame(at: 5) == expected[5])
        #expect(source.decodedFrameCount - again == 4)
    }
}
