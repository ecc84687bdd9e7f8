import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// The whole-file index of a big GIF scans its images' LZW codes on several threads; the
/// index must be the one the one-image-at-a-time walk gives, including the findings whose
/// order matters (a bad code, colours outside the table, a file without its trailer).
@Suite struct GIFParallelScanTests {
    /// 12 frames of 320×300 noise over 256 colours (about 1.3 MB), frame 7 with a 16-colour
    /// local table it overdraws; `badCodeInFrame` replaces that frame's data with a code past
    /// the next free entry; `trailer` false cuts the file after the last image.
    static func file(badCodeInFrame: Int? = nil, trailer: Bool = true) -> [UInt8] {
        var rng = SplitMix64(seed: 320)
        var colors: [GIFWriter.Color] = []
        for i in 0..<256 {
            let v = UInt8(i)
            colors.append((v, 255 &- v, v &* 7))
        }
        var w = GIFWriter(width: 320, height: 300, globalColors: colors)
        w.loop(0)
        for k in 0..<12 {
            w.graphicControl(delay: 4, disposal: 1)
            let indices = (0..<(320 * 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if k == badCodeInFrame {
                // Clear, one literal, then code 300: past the next free entry (259).
                w.image(
                    width: 320, height: 300, minimumCodeSize: 8,
                    lzwData: GIFWriter.packCodes([(256, 9), (5, 9), (300, 9), (257, 9)]))
            } else if k == 7 {
                w.image(width: 320, height: 300, indices: indices, localColors: Array(colors.prefix(16)))
            } else {
                w.image(width: 320, height: 300, indices: indices)
            }
        }
        return trailer ? w.file : w.bytes
    }

    /// The index walked one image at a time (the scans inline, as an incremental source does).
    static func sequential(_ bytes: [UInt8]) throws -> GIFIndex {
        try bytes.withUnsafeBytes { raw in
            var parser = GIFIndexParser(limits: .default)
            try parser.advance(raw)
            return try parser.finish(receivedByteCount: raw.count)
        }
    }

    static func whole(_ bytes: [UInt8]) throws -> GIFIndex {
        try bytes.withUnsafeBytes { try GIFIndex.parse($0, limits: .default) }
    }

    static func same(_ a: GIFIndex, _ b: GIFIndex) -> Bool {
        a.frames == b.frames && a.canvasSize == b.canvasSize && a.storedLoopCount == b.storedLoopCount
            && a.warnings == b.warnings && "\(String(describing: a.truncation))" == "\(String(describing: b.truncation))"
    }

    @Test func aBigFileScannedInParallelGivesTheSequentialIndex() throws {
        let bytes = Self.file()
        #expect(bytes.count >= DecoderTuning.standard.gifParallelScanMinimumBytes)
        let index = try Self.whole(bytes)
        #expect(index.frames.count == 12)
        // Frame 7 draws indices past its 16-entry local table: the warning names it.
        #expect(index.warnings.first?.hasPrefix("frame 7 uses colour index") == true)
        #expect(Self.same(index, try Self.sequential(bytes)))
        // That index came from the parallel scans (which a bad code or a cut file decline).
        let parallel = try bytes.withUnsafeBytes { try GIFIndex.parseScanningInParallel($0, limits: .default) }
        #expect(parallel.map { Self.same($0, index) } == true)
    }

    @Test func aBadCodeOrAMissingTrailerIsDecidedByTheSequentialWalk() throws {
        let bad = Self.file(badCodeInFrame: 4)
        let badIndex = try Self.whole(bad)
        #expect(badIndex.frames.count == 4)
        #expect("\(String(describing: badIndex.truncation))".contains("frame 4"))
        #expect(Self.same(badIndex, try Self.sequential(bad)))
        let cut = Self.file(trailer: false)
        let cutIndex = try Self.whole(cut)
        #expect(cutIndex.frames.count == 12)
        #expect(Self.same(cutIndex, try Self.sequential(cut)))
        for file in [bad, cut] {
            #expect(try file.withUnsafeBytes { try GIFIndex.parseScanningInParallel($0, limits: .default) } == nil)
        }
    }
}
