import Testing

@testable import Zoetrope
@testable import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `AnimationConversion` decodes the next frame while the encoder takes the current one only
/// on canvases up to `decodeAheadCanvasBytes`; beyond, one decoded frame at a time.
@Suite struct ConversionDecodeAheadTests {
    /// Records, at each frame added, the frames the source had decoded by then.
    final class RecordingWriter: AnimatedImageWriter, @unchecked Sendable {
        // @unchecked: used from the converting thread only.
        let source: SyntheticFrameSource
        /// How long `add` gives a decode ahead to show up before it records.
        let patience: Duration
        var decodedAtAdd: [[Int]] = []
        var added: [Int] = []
        init(source: SyntheticFrameSource, patience: Duration = .zero) {
            self.source = source
            self.patience = patience
        }
        var frameCount: Int { added.count }
        func add(_ frame: EncodingFrame) throws {
            let index = SyntheticFrameSource.frameIndex(in: frame.pixels)
            let clock = ContinuousClock(), deadline = clock.now + patience
            while clock.now < deadline, !source.decodedFrames.contains(index + 1) { NativeThread.sleep(.milliseconds(5)) }
            decodedAtAdd.append(source.decodedFrames)
            added.append(index)
        }
        func finish() throws -> Data { Data() }
    }

    @Test func aCanvasOverTheLimitIsDecodedOneFrameAfterAnother() throws {
        let source = SyntheticFrameSource(frameCount: 5)
        // Each add waits a while for a decode ahead, which must not come.
        let writer = RecordingWriter(source: source, patience: .milliseconds(250))
        let fed = try AnimationConversion.feed(source: source, writer: writer, progress: nil, decodeAheadCanvasBytes: 4 * 2 * 4 - 1)
        #expect(fed.count == 5 && fed.failure == nil)
        #expect(writer.added == [0, 1, 2, 3, 4])
        // Frame i reaches the encoder before frame i + 1 is decoded.
        #expect(writer.decodedAtAdd == (0..<5).map { Array(0...$0) })
    }

    @Test func aCanvasWithinTheLimitDecodesTheNextFrameAhead() throws {
        let source = SyntheticFrameSource(frameCount: 5)
        let writer = RecordingWriter(source: source)
        let fed = try AnimationConversion.feed(source: source, writer: writer, progress: nil, decodeAheadCanvasBytes: 4 * 2 * 4)
        #expect(fed.count == 5 && fed.failure == nil)
        #expect(writer.added == [0, 1, 2, 3, 4])
        // The next frame is started before frame i is added: decoded by then, or still on its way.
        for (i, decoded) in writer.decodedAtAdd.enumerated() {
            #expect(decoded == Array(0...i) || decoded == Array(0...(i + 1)), "frame \(i): \(decoded)")
        }
        #expect(source.decodedFrames == [0, 1, 2, 3, 4])
    }
}
