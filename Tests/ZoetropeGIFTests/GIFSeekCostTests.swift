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

    /// Frame 0 covers the 2×2 canvas in opaque black and is disposed to previous; frame 1
    /// is a white pixel at (0, 0), frame 2 a red one at (1, 0). However frame 1 is reached
    /// (in order, or after frames 2 and 0 as a second play does), it shows the white pixel
    /// on a transparent canvas, never frame 2's red one.
    /// (Premultiplied output goes through the canvas; the pixels here are opaque or
    /// transparent, so the values are the same.)
    @Test(arguments: [DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied)])
    func frameOneAfterASeekBackShowsNoStalePixels(options: DecodingOptions) throws {
        let file = [UInt8](CompositingCase.coveringFrameDisposedToPrevious.gif)
        let white: [UInt8] = [255, 255, 255, 255], clear: [UInt8] = [0, 0, 0, 0], red: [UInt8] = [255, 0, 0, 255]
        let source = try F.source(file, options: options)
        #expect(F.pixels(try source.decodeFrame(at: 1)) == [white, clear, clear, clear])
        #expect(F.pixels(try source.decodeFrame(at: 2)) == [white, red, clear, clear])
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [[0, 0, 0, 255], [0, 0, 0, 255], [0, 0, 0, 255], [0, 0, 0, 255]])
        #expect(F.pixels(try source.decodeFrame(at: 1)) == [white, clear, clear, clear])
        // The same through a fresh source after a seek to the last frame.
        let other = try F.source(file, options: options)
        _ = try other.decodeFrame(at: 2)
        _ = try other.decodeFrame(at: 0)
        #expect(F.pixels(try other.decodeFrame(at: 1)) == [white, clear, clear, clear])
    }
}
