import Testing
import Zoetrope

@testable import ZoetropeAVIF

/// Zoetrope's container checks where libavif 0.11 falls short: which tracks libavif sees,
/// and item references to ID 0.
@Suite struct AVIFContainerTests {
    typealias B = BoxBytes

    func parse(_ file: [UInt8]) throws -> AVIFIndex {
        try file.withUnsafeBytes { try AVIFIndex.parse($0) }
    }

    @Test func audioAndDepthTracksAreHiddenAlphaIsKept() throws {
        let file = B.file(tracks: [
            B.trak(id: 1),
            B.trak(id: 2, handler: "soun", coding: "mp4a"),
            B.trak(id: 3, handler: "auxv", auxiliaryFor: 1, auxiType: "urn:mpeg:mpegB:cicp:systems:auxiliary:depth"),
            B.trak(id: 4, handler: "auxv", auxiliaryFor: 1, auxiType: "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"),
        ])
        let c = try parse(file)
        #expect(c.colourTrack?.id == 1)
        #expect(c.alphaTrack?.id == 4)
        #expect(c.tracksToHide.map(\.id) == [2, 3])
        #expect(c.colourTrack?.width == 64 && c.colourTrack?.height == 48 && c.colourTrack?.sampleCount == 5)
    }

    @Test func auxiliaryTrackWithoutAuxiIsAlpha() throws {
        // Older writers (libavif before auxi) mark alpha only with tref/auxl.
        let c = try parse(B.file(tracks: [B.trak(id: 1), B.trak(id: 2, handler: "auxv", auxiliaryFor: 1)]))
        #expect(c.alphaTrack?.id == 2)
        #expect(c.tracksToHide.isEmpty)
    }

    @Test func depthOnlyFileHasNoAlphaTrack() throws {
        let c = try parse(
            B.file(tracks: [
                B.trak(id: 1),
                B.trak(id: 2, handler: "auxv", auxiliaryFor: 1, auxiType: "urn:mpeg:mpegB:cicp:systems:auxiliary:depth"),
            ]))
        #expect(c.alphaTrack == nil)
        #expect(c.tracksToHide.map(\.id) == [2])
    }

    @Test func colourTrackNeedsAnIDAndSamples() throws {
        // As libavif does, skip an AV1 track without samples or without a track ID.
        let c = try parse(B.file(tracks: [B.trak(id: 1, samples: 0), B.trak(id: 0), B.trak(id: 3)]))
        #expect(c.colourTrack?.id == 3)
        #expect(c.tracksToHide.map(\.id) == [1, 0])
    }

    func meta(_ iref: [UInt8]) -> [UInt8] {
        B.fullBox("meta", version: 0, B.hdlr("pict") + B.fullBox("pitm", version: 0, B.u16(1)) + iref)
    }

    @Test func itemReferenceToIDZeroIsRejected() {
        let file = B.file(meta: meta(B.iref(version: 0, [("auxl", 3, [0])])), tracks: [B.trak(id: 1)])
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'iref' ('auxl' reference) names invalid item ID 0")) {
            try parse(file)
        }
    }

    @Test func itemReferenceFromIDZeroIsRejectedInVersion1() {
        let file = B.file(meta: meta(B.iref(version: 1, [("cdsc", 0, [1])])), tracks: [B.trak(id: 1)])
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'iref' ('cdsc' reference) names invalid item ID 0")) {
            try parse(file)
        }
    }

    @Test func validItemReferencesPass() throws {
        let c = try parse(B.file(meta: meta(B.iref(version: 0, [("auxl", 2, [1]), ("cdsc", 3, [1])])), tracks: [B.trak(id: 1)]))
        #expect(c.hasPrimaryItem)
        #expect(c.colourTrack?.id == 1)
    }

    @Test func stillOnlyFileHasNoColourTrack() throws {
        var file = B.ftyp("avif", ["avif", "mif1"])
        file += meta(B.iref(version: 0, [("auxl", 2, [1])]))
        let c = try parse(file)
        #expect(c.hasPrimaryItem)
        #expect(c.colourTrack == nil)
        #expect(try c.loopCount() == .once)
    }
}
