import Testing
import Zoetrope

@testable import ZoetropeAVIF

/// The AVIF loop-count rule, read from hand-built `moov/trak/edts/elst` boxes.
@Suite struct AVIFEditListTests {
    typealias B = BoxBytes

    func loopCount(_ file: [UInt8]) throws -> LoopCount {
        try file.withUnsafeBytes { try AVIFIndex.parse($0).loopCount() }
    }

    func colourTrack(duration: UInt64, tkhdVersion: UInt8 = 0, elst: [UInt8]?) -> [UInt8] {
        B.file(tracks: [B.trak(id: 1, duration: duration, tkhdVersion: tkhdVersion, editList: elst)])
    }

    @Test func noEditListPlaysForever() throws {
        #expect(try loopCount(colourTrack(duration: 500, elst: nil)) == .infinite)
    }

    @Test func repeatFlagOffPlaysOnce() throws {
        let elst = B.elst(version: 0, repeats: false, entries: [(100, 0)])
        #expect(try loopCount(colourTrack(duration: 1000, elst: elst)) == .once)
    }

    @Test func repeatFlagOffIgnoresEntryCount() throws {
        let elst = B.elst(version: 0, repeats: false, entries: [(100, 0), (200, 0)])
        #expect(try loopCount(colourTrack(duration: 1000, elst: elst)) == .once)
    }

    @Test func oneRepeatingEntryPlaysCeilingOfTrackOverSegment() throws {
        // 1000 / 300 = 3.33… → 4 plays (3 repetitions); 900 / 300 = 3 plays exactly.
        #expect(try loopCount(colourTrack(duration: 1000, elst: B.elst(version: 0, repeats: true, entries: [(300, 0)]))) == .plays(4))
        #expect(try loopCount(colourTrack(duration: 900, elst: B.elst(version: 0, repeats: true, entries: [(300, 0)]))) == .plays(3))
        // A track no longer than its segment plays once.
        #expect(try loopCount(colourTrack(duration: 300, elst: B.elst(version: 0, repeats: true, entries: [(300, 0)]))) == .once)
    }

    @Test func version1BoxesUse64BitFields() throws {
        // 64-bit durations past UInt32: 10_000_000_000 / 3_000_000_000 → 4 plays.
        let elst = B.elst(version: 1, repeats: true, entries: [(3_000_000_000, 0)])
        #expect(try loopCount(colourTrack(duration: 10_000_000_000, tkhdVersion: 1, elst: elst)) == .plays(4))
    }

    @Test func indefiniteTrackDurationPlaysForever() throws {
        let v0 = B.elst(version: 0, repeats: true, entries: [(25, 0)])
        #expect(try loopCount(colourTrack(duration: 0xFFFF_FFFF, tkhdVersion: 0, elst: v0)) == .infinite)
        let v1 = B.elst(version: 1, repeats: true, entries: [(25, 0)])
        #expect(try loopCount(colourTrack(duration: .max, tkhdVersion: 1, elst: v1)) == .infinite)
    }

    @Test func severalRepeatingEntriesAreAnError() {
        let elst = B.elst(version: 0, repeats: true, entries: [(100, 0), (100, 100)])
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "repeating box 'elst' must hold exactly one entry, holds 2")) {
            try loopCount(colourTrack(duration: 1000, elst: elst))
        }
    }

    @Test func zeroSegmentDurationIsAnError() {
        let elst = B.elst(version: 0, repeats: true, entries: [(0, 0)])
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "repeating box 'elst' has a segment duration of 0")) {
            try loopCount(colourTrack(duration: 1000, elst: elst))
        }
    }

    @Test func truncatedEditListIsAnError() {
        // Says one version-0 entry (12 bytes) but holds 8.
        let elst = B.fullBox("elst", version: 0, flags: 1, B.u32(1) + B.u32(300) + B.u32(0))
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'elst' lists 1 entries but holds 8 bytes (12 per entry)")) {
            try loopCount(colourTrack(duration: 1000, elst: elst))
        }
        // Cut inside the entry count.
        let short = B.fullBox("elst", version: 0, flags: 1, [0, 0])
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'elst' is truncated (needs 4 more bytes, has 2)")) {
            try loopCount(colourTrack(duration: 1000, elst: short))
        }
    }

    @Test func unknownVersionIsAnError() {
        let elst = B.fullBox("elst", version: 2, flags: 1, B.u32(0))
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'elst' has unknown version 2")) {
            try loopCount(colourTrack(duration: 1000, elst: elst))
        }
    }

    @Test func boxLargerThanItsParentIsAnError() {
        // An edts whose elst claims 64 bytes but has 20.
        var elst = B.elst(version: 0, repeats: true, entries: [(300, 0)])
        elst.replaceSubrange(0..<4, with: B.u32(64))
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'elst' in 'edts' claims 64 bytes but only 28 remain")) {
            try loopCount(colourTrack(duration: 1000, elst: elst))
        }
    }

    @Test func onlyTheColourTracksEditListCounts() throws {
        // The alpha track's (broken) edit list is not the loop count; the colour track has none.
        let broken = B.fullBox("elst", version: 7, B.u32(0))
        let file = B.file(tracks: [B.trak(id: 1), B.trak(id: 2, handler: "auxv", auxiliaryFor: 1, editList: broken)])
        #expect(try loopCount(file) == .infinite)
    }

    @Test func fileCutInsideMoovIsTruncated() {
        let file = colourTrack(duration: 1000, elst: B.elst(version: 0, repeats: false, entries: [(100, 0)]))
        #expect(throws: AnimatedImageError.truncated(format: .avif, completeFrames: 0, reason: "the file ends inside its 'moov' box")) {
            try loopCount(Array(file.dropLast(10)))
        }
    }
}
