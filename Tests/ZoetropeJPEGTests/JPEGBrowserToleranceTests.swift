import Foundation
import Testing
import Zoetrope

@testable import ZoetropeJPEG

/// Files libjpeg-turbo reads with a warning (and browsers show): each decodes to exactly
/// the pixels libjpeg-turbo's own decompressor gives for the same bytes, and says what is wrong.
@Suite struct JPEGBrowserToleranceTests {
    static let clean = JPEGFixtures.compress(JPEGFixtures.gradient(width: 48, height: 40), width: 48, height: 40)

    /// Opens and decodes `jpeg`, checks the pixels against libjpeg-turbo's, and returns the
    /// info's warnings and libjpeg-turbo's own first warning.
    static func decodesAsLibjpegTurbo(_ jpeg: Data) throws -> (warnings: [String], libraryWarning: String?) {
        let source = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        let frame = try source.decodeFrame(at: 0)
        let reference = JPEGFixtures.referenceAllowingWarnings(jpeg)
        #expect(frame == reference.pixels)
        #expect(frame.size == PixelSize(width: 48, height: 40))
        return (source.info.warnings, reference.warning)
    }

    @Test func stuffedZeroBytesAfterTheHeaderAreSkipped() throws {
        // As Pillow's jpeg_ff00_header.jpg: FF 00 pairs where a marker belongs.
        let jpeg = JPEGFixtures.inserting([0xFF, 0x00, 0xFF, 0x00], before: 0xDB, in: Self.clean)
        let result = try Self.decodesAsLibjpegTurbo(jpeg)
        #expect(result.libraryWarning == "Corrupt JPEG data: 4 extraneous bytes before marker 0xdb")
        #expect(result.warnings == ["Corrupt JPEG data: 4 extraneous bytes before marker 0xdb"])
    }

    @Test func junkBetweenHeaderMarkersIsSkipped() throws {
        let junk = Array("junk in the header".utf8)
        let jpeg = JPEGFixtures.inserting(junk, before: 0xC0, in: Self.clean)
        let result = try Self.decodesAsLibjpegTurbo(jpeg)
        #expect(result.libraryWarning == "Corrupt JPEG data: 18 extraneous bytes before marker 0xc0")
        #expect(result.warnings == ["Corrupt JPEG data: 18 extraneous bytes before marker 0xc0"])
    }

    @Test func aTruncatedAdobeSegmentReadsOnAsLibjpegDoes() throws {
        // APP14 "Adobe" whose length (14) runs 5 bytes past its 7 bytes, into a comment:
        // the rest of the comment is junk before the next marker.
        let app14: [UInt8] = [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0x00, 0x64]
        let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x08] + Array("xxxxxx".utf8)
        let jpeg = JPEGFixtures.inserting(app14 + comment, before: 0xDB, in: Self.clean)
        let result = try Self.decodesAsLibjpegTurbo(jpeg)
        #expect(result.libraryWarning != nil)
        #expect(result.warnings.contains("Corrupt JPEG data: 5 extraneous bytes before marker 0xdb"))
    }

    @Test func aPhotoshopSegmentWithAShortLengthIsSkipped() throws {
        // APP13 "Photoshop 3.0" whose length covers its signature only: its resource block
        // follows as junk.
        let signature = Array("Photoshop 3.0".utf8) + [0]
        let app13: [UInt8] = [0xFF, 0xED, 0x00, UInt8(signature.count + 2)] + signature
        let resource = Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 8] + Array("resource".utf8)
        let jpeg = JPEGFixtures.inserting(app13 + resource, before: 0xDB, in: Self.clean)
        let result = try Self.decodesAsLibjpegTurbo(jpeg)
        #expect(result.libraryWarning == "Corrupt JPEG data: \(resource.count) extraneous bytes before marker 0xdb")
        #expect(result.warnings == ["Corrupt JPEG data: \(resource.count) extraneous bytes before marker 0xdb"])
    }

    @Test(arguments: [[0xFF, 0xFE, 0x00, 0x00], [0xFF, 0xFE, 0x00, 0x01], [0xFF, 0xE1, 0x00, 0x00]] as [[UInt8]])
    func aZeroLengthCommentOrApplicationMarkerIsSkipped(marker: [UInt8]) throws {
        // As Wuffs' hippopotamus-bad-comment-length.jpeg: libjpeg reads the length field and
        // goes on after it.
        let jpeg = JPEGFixtures.inserting(marker, before: 0xDB, in: Self.clean)
        let result = try Self.decodesAsLibjpegTurbo(jpeg)
        #expect(result.libraryWarning == nil)
        let name = marker[1] == 0xFE ? "FE" : "E1"
        #expect(result.warnings == ["marker FF \(name) has a length of \(marker[3]), skipped"])
    }

    @Test func aTooShortTableIsStillAnError() {
        // A quantisation table of length 0: libjpeg-turbo refuses it, and so does the walk.
        let jpeg = JPEGFixtures.inserting([0xFF, 0xDB, 0x00, 0x00], before: 0xDB, in: Self.clean)
        #expect(JPEGBadInputTests.error(jpeg) == .invalidData(format: .jpeg, reason: "marker FF DB has a length of 0"))
    }

    @Test func manyDamagedSegmentsReportTheFirstFewAndACount() throws {
        var junk: [UInt8] = []
        for _ in 0..<20 { junk += [0x01, 0xFF, 0xFE, 0x00, 0x02] }
        let jpeg = JPEGFixtures.inserting(junk, before: 0xDB, in: Self.clean)
        let result = try Self.decodesAsLibjpegTurbo(jpeg)
        #expect(result.warnings.count == JPEGWarnings.kept + 1)
        #expect(result.warnings.first == "Corrupt JPEG data: 1 extraneous bytes before marker 0xfe")
        #expect(result.warnings.last == "and 12 more warnings")
    }
}
