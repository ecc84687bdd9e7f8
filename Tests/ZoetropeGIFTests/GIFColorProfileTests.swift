import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// GIF's one colour tag, the ICC's `ICCRGBG1` application extension: written by `GIFEncoder`
/// after the loop block, read back byte for byte, bounded and never kept cut.
@Suite struct GIFColorProfileTests {
    static let frames = GIFEncoderTests.movingFrames().prefix(3).map { EncodingFrame(pixels: $0, duration: .centiseconds(5)) }
    static let size = GIFEncoderTests.movingFrames()[0].size

    /// The extension's bytes: introducer, label, identifier block, the profile in sub-blocks, terminator.
    static func iccExtension(_ profile: [UInt8]) -> [UInt8] {
        [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8) + GIFWriter.subBlocks(profile)
    }

    @Test func profileRoundTripsAndNothingElseChanges() throws {
        let options = EncodingOptions(
            loopCount: .plays(2), color: ColorInfo(iccProfile: ColorFixtures.iccProfile),
            metadata: ColorFixtures.metadata)
        let file = [UInt8](try GIFEncoder().encode(Self.frames, canvasSize: Self.size, options: options))
        let plain = [UInt8](try GIFEncoder().encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(loopCount: .plays(2))))
        let ext = Self.iccExtension(ColorFixtures.iccProfile.data)
        // Right after the header, global table and NETSCAPE2.0 block; Exif and XMP have no place in GIF.
        let netscapeEnd = try #require(plain.indices.dropLast().first { plain[$0] == 0x21 && plain[$0 + 1] == 0xFF }) + 19
        #expect(Array(file[netscapeEnd..<(netscapeEnd + ext.count)]) == ext)
        var stripped = file
        stripped.removeSubrange(netscapeEnd..<(netscapeEnd + ext.count))
        #expect(stripped == plain)

        let source = try GIFCoder().makeFrameSource(data: Data(file), options: DecodingOptions(colorOutput: .stored))
        #expect(source.info.color == ColorInfo(iccProfile: ColorFixtures.iccProfile))
        #expect(source.info.metadata == .none)
        #expect(source.info.loopCount == .plays(2))
        for i in 0..<3 {
            #expect(
                try source.decodeFrame(at: i)
                    == (try GIFCoder().makeFrameSource(data: Data(plain), options: DecodingOptions(colorOutput: .stored)).decodeFrame(at: i)))
        }
        #expect(try GIFCoder().makeFrameSource(data: Data(plain), options: .default).info.color == .unspecified)
    }

    @Test func onlyAWholeFirstProfileIsRead() throws {
        func info(_ blocks: [[UInt8]]) throws -> AnimationInfo {
            var w = GIFWriter(width: 2, height: 2, globalColors: [(0, 0, 0), (255, 255, 255)])
            for b in blocks { w.raw(b) }
            w.image(width: 2, height: 2, indices: [0, 1, 1, 0])
            w.trailer()
            return try GIFCoder().makeFrameSource(data: Data(w.bytes), options: .default).info
        }
        let a = ColorFixtures.iccProfile.data, b = ColorFixtures.otherICCProfile.data
        // The first of two counts; another application extension or a comment around it changes nothing.
        let commentBlock: [UInt8] = [0x21, 0xFE] + GIFWriter.subBlocks(Array("hello".utf8))
        #expect(try info([commentBlock, Self.iccExtension(a), Self.iccExtension(b)]).color.iccProfile?.data == a)
        // Another identifier (or authentication code) is not a profile.
        var other = Self.iccExtension(a)
        other[13] = UInt8(ascii: "3")  // "ICCRGBG1013"
        #expect(try info([other]).color == .unspecified)
        // An empty profile (no sub-block) is no profile.
        #expect(try info([[0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8) + [0]]).color == .unspecified)
    }

    @Test func aProfileCutByTheEndOfTheFileIsNotKept() throws {
        let file = [UInt8](
            try GIFEncoder().encode(
                Self.frames, canvasSize: Self.size,
                options: EncodingOptions(color: ColorInfo(iccProfile: ColorFixtures.iccProfile))))
        let start = try #require(file.indices.first { $0 + 8 <= file.count && Array(file[$0..<$0 + 8]) == Array("ICCRGBG1".utf8) })
        let cut = Array(file[0..<(start + 300)])
        var parser = GIFIndexParser(limits: .default)
        try cut.withUnsafeBytes { try parser.advance($0) }
        #expect(parser.iccProfile == nil)
        // Whole, in pieces: the same profile as in one go.
        var pieces = GIFIndexParser(limits: .default)
        for end in stride(from: 1, through: file.count, by: 97) {
            try file[0..<min(end, file.count)].withUnsafeBytes { try pieces.advance($0) }
        }
        try file.withUnsafeBytes { try pieces.advance($0) }
        #expect(pieces.iccProfile == ColorFixtures.iccProfile.data)
    }

    @Test func aProfilePastTheAllocationLimitIsIgnored() throws {
        let file = [UInt8](
            try GIFEncoder().encode(
                Self.frames, canvasSize: Self.size,
                options: EncodingOptions(color: ColorInfo(iccProfile: ColorFixtures.iccProfile))))
        var limits = Limits.default
        limits.maxAllocationBytes = ColorFixtures.iccProfile.data.count - 1
        var parser = GIFIndexParser(limits: limits)
        try file.withUnsafeBytes { try parser.advance($0) }
        #expect(parser.iccProfile == nil)
        limits.maxAllocationBytes = ColorFixtures.iccProfile.data.count
        parser = GIFIndexParser(limits: limits)
        try file.withUnsafeBytes { try parser.advance($0) }
        #expect(parser.iccProfile == ColorFixtures.iccProfile.data)
    }
}
