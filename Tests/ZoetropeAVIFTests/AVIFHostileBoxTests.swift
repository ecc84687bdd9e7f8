import Foundation
import Testing
import Zoetrope

@testable import ZoetropeAVIF

/// Boxes whose headers claim more than the file holds, or nest without end: memory follows
/// what the file holds, and messages say what is wrong.
@Suite struct AVIFHostileBoxTests {
    let coder = AVIFCoder()
    static let gibibyte: UInt32 = 1 << 30

    /// Limits that allow the frames of a small file but nowhere near 1 GiB.
    static let tight = DecodingOptions(limits: Limits(maxAllocationBytes: 256 * 1024))

    /// The encoded 32×24 sequence with its `mdat` header claiming 1 GiB (the file ends long before).
    static func sequenceWithHugeMdat() throws -> Data {
        var data = try AVIFSequenceDecodingTests.alphaSequence()
        let type = data.firstRange(of: Data("mdat".utf8))!.lowerBound
        data.replaceSubrange(type - 4..<type, with: BoxBytes.u32(gibibyte))
        return data
    }

    @Test func aTrailingFreeBoxClaimingAGibibyteCostsOnlyTheFile() throws {
        let whole = try AVIFSequenceDecodingTests.alphaSequence()
        let data = whole + Data(BoxBytes.u32(Self.gibibyte) + Array("free".utf8) + [1, 2, 3, 4])
        #expect(data.count < 4096)
        let source = try coder.makeFrameSource(data: data, options: Self.tight)
        #expect(source.info.frameCount == 3 && source.info.truncation == nil)
        let reference = try coder.makeFrameSource(data: whole, options: .default)
        for i in 0..<3 { #expect(try source.decodeFrame(at: i) == reference.decodeFrame(at: i), "frame \(i)") }
        // The file copy, one frame's YUVA planes: a few KiB, not the 1 GiB the header claims.
        #expect(source.retainedByteCount < data.count + 32 * 24 * 4 + 4096)
    }

    @Test func anMdatClaimingAGibibyteCostsOnlyTheFile() throws {
        let data = try Self.sequenceWithHugeMdat()
        #expect(data.count < 4096)
        let source = try coder.makeFrameSource(data: data, options: Self.tight)
        // Every sample lies inside the bytes present: all three frames decode.
        #expect(source.info.frameCount == 3)
        let reference = try coder.makeFrameSource(data: try AVIFSequenceDecodingTests.alphaSequence(), options: .default)
        for i in 0..<3 { #expect(try source.decodeFrame(at: i) == reference.decodeFrame(at: i), "frame \(i)") }
        #expect(source.retainedByteCount < data.count + 32 * 24 * 4 + 4096)
    }

    @Test func aCutMdatClaimingAGibibyteKeepsItsCompleteFrames() throws {
        let full = try Self.sequenceWithHugeMdat()
        let reference = try coder.makeFrameSource(data: try AVIFSequenceDecodingTests.alphaSequence(), options: .default)
        var counts = Set<Int>()
        for length in stride(from: full.count - 1, to: full.count / 2, by: -5) {
            // Cut before frame 0's data: a typed truncation error, checked by the suite above.
            guard let source = try? coder.makeFrameSource(data: full.prefix(length), options: Self.tight) else { continue }
            let n = source.info.frameCount
            counts.insert(n)
            #expect(
                source.info.truncation
                    == .truncated(
                        format: .avif, completeFrames: n,
                        reason: "the file ends (at \(length) bytes) inside the data of frame \(n) of 3"))
            for i in 0..<n { #expect(try source.decodeFrame(at: i) == reference.decodeFrame(at: i)) }
            #expect(source.retainedByteCount < length + 32 * 24 * 4 + 4096)
        }
        #expect(counts.isSuperset(of: [1, 2]))
    }

    /// `ftyp`, then `depth` boxes of `type`, each holding the next.
    static func nested(_ type: String, depth: Int, innermost: [UInt8] = []) -> Data {
        var payload = innermost
        for _ in 0..<depth { payload = BoxBytes.box(type, payload) }
        return Data(BoxBytes.ftyp("avis", ["avif", "avis", "mif1", "msf1", "miaf"]) + payload)
    }

    @Test func tenThousandNestedBoxesAreTooDeepNotTruncated() {
        for type in ["moov", "free"] {
            #expect(
                throws: AnimatedImageError.invalidData(
                    format: .avif,
                    reason:
                        "boxes are nested more than 32 levels deep ('\(type)' › '\(type)' › '\(type)' › '\(type)' › …, at byte 292); "
                        + "no AVIF file nests boxes that deep")
            ) {
                try coder.makeFrameSource(data: Self.nested(type, depth: 10_000), options: .default)
            }
        }
    }

    @Test func aNestedBoxPastItsParentsEndIsNamed() {
        // Ten 'abcd' boxes; the innermost holds a box whose header claims 100 bytes of 8.
        let data = Self.nested("abcd", depth: 10, innermost: BoxBytes.u32(100) + Array("wxyz".utf8))
        #expect(
            throws: AnimatedImageError.invalidData(
                format: .avif,
                reason:
                    "box 'wxyz' in 'abcd' at byte 116 claims 100 bytes, past the end of its parent (8 bytes remain)")
        ) {
            try coder.makeFrameSource(data: data, options: .default)
        }
    }

    @Test func pixelsPerPlayIsCheckedWhenTheSequenceIsIndexed() throws {
        let data = try AVIFSequenceDecodingTests.alphaSequence()  // 3 frames of 32×24
        #expect(throws: AnimatedImageError.limitExceeded(format: .avif, limit: .pixelsPerPlay, requested: 3 * 32 * 24, allowed: 2000)) {
            try coder.makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxPixelsPerPlay: 2000)))
        }
        let fits = try coder.makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxPixelsPerPlay: 3 * 32 * 24)))
        #expect(fits.info.frameCount == 3)
    }

    @Test func aStillCutInsideItsImageDataIsATruncation() throws {
        // libavif's reader for a still reports the real size (no claimed size as a hint):
        // the cut is still found by the frame's extent and reported as a truncation.
        let e = AVIFTestEncoder(width: 8, height: 4)
        let still = try e.encode([e.halves([1, 2, 3, 255], [4, 5, 6, 7], durationMs: 0)], still: true)
        let cut = still.prefix(still.count - 10)
        #expect(
            throws: AnimatedImageError.truncated(
                format: .avif, completeFrames: 0,
                reason: "the file ends (at \(cut.count) bytes) inside the data of frame 0 of 1")
        ) {
            try coder.makeFrameSource(data: cut, options: .default)
        }
    }
}
