import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// `DecodingOptions.showsPartialFirstFrame`: a first frame whose data has not all arrived
/// shows the pixels of its complete sub-blocks, the rest transparent, as a frame whose data
/// stops early shows them; off, nothing changes.
@Suite struct GIFPartialFirstFrameTests {
    static let partial = DecodingOptions(showsPartialFirstFrame: true)

    /// Two 64×64 frames of noise over 256 colours: frame 0's data spans many sub-blocks.
    static func file() -> (bytes: [UInt8], dataStart: Int, frame0End: Int) {
        var rng = SplitMix64(seed: 64)
        var colors: [GIFWriter.Color] = []
        for i in 0..<256 { colors.append((UInt8(i), UInt8(255 - i), UInt8(i / 2))) }
        var w = GIFWriter(width: 64, height: 64, globalColors: colors)
        w.graphicControl(delay: 7)
        let descriptor = w.bytes.count
        w.image(width: 64, height: 64, indices: (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let end = w.bytes.count
        w.graphicControl(delay: 9)
        w.image(width: 64, height: 64, indices: (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        // Descriptor (10 bytes), then the code size byte: the data's first sub-block follows.
        return (w.file, descriptor + 10 + 1, end)
    }

    /// How many pixels of `partial` (in row order) are frame 0's, checking that every
    /// pixel after them is transparent: the decoded part is a prefix of the whole frame.
    static func decodedPrefix(_ partial: PixelBuffer, of whole: PixelBuffer) -> Int? {
        let a = partial.bytes, b = whole.bytes
        guard a.count == b.count else { return nil }
        var n = 0
        while n < a.count / 4, a[4 * n..<4 * n + 4] == b[4 * n..<4 * n + 4] { n += 1 }
        for p in n..<a.count / 4 where a[4 * p + 3] != 0 { return nil }
        return n
    }

    @Test func aFileCutInsideFrameZeroShowsItsDecodedRowsOnlyWhenAsked() throws {
        let (bytes, start, end) = Self.file()
        let cut = start + (end - start) / 2
        let data = Data(bytes[..<cut])
        // Off (the default): the file fails to open, as before.
        #expect(throws: AnimatedImageError.self) { try GIFCoder().makeFrameSource(data: data, options: .default) }
        // On: one frame, the truncation reported, the rows that arrived drawn.
        let source = try GIFCoder().makeFrameSource(data: data, options: Self.partial)
        #expect(source.info.frameCount == 1)
        #expect(source.info.truncation != nil)
        let frame = try source.decodeFrame(at: 0)
        let whole = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default).decodeFrame(at: 0)
        // The pixels that arrived are the whole frame's, about half of them; the rest transparent.
        let n = try #require(Self.decodedPrefix(frame, of: whole))
        #expect(n > 4096 * 3 / 10 && n < 4096 * 7 / 10, "\(n) pixels decoded")
    }

    @Test func anIncrementalSourceCountsFrameZeroWhileItArrives() throws {
        let (bytes, start, end) = Self.file()
        let whole = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        let source = GIFCoder().makeIncrementalSource(options: Self.partial)
        try source.append(bytes[..<(start + 1)])
        var sawPartial = 0, decoded = 0
        var offset = start + 1
        let frame0 = try whole.decodeFrame(at: 0)
        while offset < end - 1 {
            let next = min(end - 1, offset + 700)
            let snapshot = try source.append(bytes[offset..<next])
            offset = next
            #expect(snapshot.firstFrameIsPartial)
            #expect(snapshot.frameCount == 1)
            #expect(snapshot.frameDurations == [.centiseconds(7)])
            // More of frame 0 each time, always a prefix of it.
            let n = try #require(Self.decodedPrefix(try source.decodeFrame(at: 0), of: frame0))
            #expect(n >= decoded)
            decoded = n
            #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 1, availableFrames: 1)) {
                try source.decodeFrame(at: 1)
            }
            sawPartial += 1
        }
        #expect(sawPartial >= 4)
        #expect(decoded > 4096 / 2)
        // Frame 0 complete: no longer partial, exactly the whole file's.
        let snapshot = try source.append(bytes[offset..<end])
        #expect(!snapshot.firstFrameIsPartial)
        #expect(snapshot.frameCount == 1)
        #expect(try source.decodeFrame(at: 0) == (try whole.decodeFrame(at: 0)))
        try source.append(bytes[end...])
        #expect(try source.finish() == whole.info)
        #expect(try source.decodeFrame(at: 1) == (try whole.decodeFrame(at: 1)))
    }

    @Test func withoutTheOptionAnArrivingFrameZeroIsNotCounted() throws {
        let (bytes, start, end) = Self.file()
        let source = GIFCoder().makeIncrementalSource(options: .default)
        let snapshot = try source.append(bytes[..<((start + end) / 2)])
        #expect(snapshot.frameCount == 0)
        #expect(!snapshot.firstFrameIsPartial)
        #expect(throws: AnimatedImageError.frameNotYetAvailable(index: 0, availableFrames: 0)) { try source.decodeFrame(at: 0) }
    }
}
