import CTurboJPEG
import Foundation
import Testing
import Zoetrope
import ZoetropeColorTestSupport

@testable import ZoetropeJPEG

/// A JPEG's ICC profile (`APP2` chunks), Exif and XMP (`APP1`): reported, and the profile
/// converted to sRGB as lcms2 converts it.
@Suite struct JPEGColorAndMetadataTests {
    static let size = PixelSize(width: 16, height: 8)
    static let plain = JPEGFixtures.compress(JPEGFixtures.gradient(width: 16, height: 8), width: 16, height: 8)
    static let adobeRGB = LCMSProfiles.adobeRGB(description: "Adobe RGB (1998)")

    /// `jpeg` with `segments` (marker, payload) right after SOI.
    static func inserting(_ jpeg: Data, _ segments: [(UInt8, [UInt8])]) -> Data {
        var out = Data(jpeg.prefix(2))
        for (marker, payload) in segments {
            let n = payload.count + 2
            out += [0xFF, marker, UInt8(n >> 8), UInt8(n & 0xFF)] + payload
        }
        return out + jpeg.dropFirst(2)
    }

    /// `profile` as `count` `APP2` chunks, numbered 1…count, in the order `order` gives.
    static func iccSegments(_ profile: [UInt8], count: Int, order: [Int]? = nil, total: Int? = nil) -> [(UInt8, [UInt8])] {
        let step = (profile.count + count - 1) / count
        let chunks = (0..<count).map { Array(profile[($0 * step)..<min(profile.count, ($0 + 1) * step)]) }
        return (order ?? Array(1...count)).map { n in
            (0xE2, Array("ICC_PROFILE".utf8) + [0, UInt8(n), UInt8(total ?? count)] + chunks[n - 1])
        }
    }

    /// `pixels` (opaque RGBA) converted from Adobe RGB to sRGB by lcms2 directly.
    static func toSRGB(_ pixels: PixelBuffer) -> [UInt8] { LCMSProfiles.toSRGB(pixels.bytes, fromProfile: adobeRGB) }

    /// Same length, every channel within 1: the matrix-shaper fast path rounds differently
    /// from lcms2 on some values (Docs/Colour.md).
    static func withinOne(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    @Test func anICCProfileInOneOrSeveralChunksConvertsAsLcms2Does() throws {
        let stored = JPEGFixtures.reference(Self.plain)
        let expected = Self.toSRGB(stored)
        #expect(expected != stored.bytes, "the profile changes these colours")
        for segments in [Self.iccSegments(Self.adobeRGB, count: 1), Self.iccSegments(Self.adobeRGB, count: 3, order: [2, 3, 1])] {
            let data = Self.inserting(Self.plain, segments)
            let source = try JPEGCoder().makeFrameSource(data: data, options: .default)
            #expect(source.info.color.iccProfile?.data == Self.adobeRGB)
            #expect(source.info.warnings.isEmpty)
            #expect(Self.withinOne(try source.decodeFrame(at: 0).bytes, expected))
            // As stored: the values libjpeg-turbo gives, the profile still reported.
            let raw = try JPEGCoder().makeFrameSource(data: data, options: DecodingOptions(colorOutput: .stored))
            #expect(raw.info.color.iccProfile?.data == Self.adobeRGB)
            #expect(try raw.decodeFrame(at: 0).bytes == stored.bytes)
        }
    }

    @Test func aTurnedPictureIsConvertedToo() throws {
        let data = Self.inserting(JPEGFixtures.withOrientation(Self.plain, 6), Self.iccSegments(Self.adobeRGB, count: 2))
        let stored = JPEGFixtures.reference(Self.plain)
        var converted = stored
        converted.bytes = Self.toSRGB(stored)
        let frame = try JPEGCoder().makeFrameSource(data: data, options: .default).decodeFrame(at: 0)
        let oriented = JPEGColor.oriented(converted, .right)
        #expect(frame.size == oriented.size && frame.format == oriented.format)
        #expect(Self.withinOne(frame.bytes, oriented.bytes))
    }

    @Test func aProfileWithAChunkMissingOrContradictedIsNotUsed() throws {
        let broken: [[(UInt8, [UInt8])]] = [
            Self.iccSegments(Self.adobeRGB, count: 3, order: [1, 3]),  // chunk 2 missing
            Self.iccSegments(Self.adobeRGB, count: 2, order: [1, 2, 2]),  // chunk 2 twice
            Self.iccSegments(Self.adobeRGB, count: 2, order: [1, 2], total: 1),  // numbered past its count
            [(0xE2, Array("ICC_PROFILE".utf8) + [0, 1])],  // no count byte
        ]
        for segments in broken {
            let source = try JPEGCoder().makeFrameSource(data: Self.inserting(Self.plain, segments), options: .default)
            #expect(source.info.color == .unspecified)
            #expect(try source.decodeFrame(at: 0).bytes == JPEGFixtures.reference(Self.plain).bytes)
        }
    }

    @Test func exifIsReportedUprightAndXMPAsStored() throws {
        let xmp = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
        let turned = JPEGFixtures.withOrientation(Self.plain, 6, bigEndian: true)
        let data = Self.inserting(turned, [(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp)])
        let info = try JPEGCoder().makeFrameSource(data: data, options: .default).info
        #expect(info.metadata.xmp == xmp)
        // The block as stored, with its orientation (big-endian SHORT 6) now 1: the frames
        // are turned already, so a copy of the block must not turn them again.
        let stored = [UInt8](turned[(2 + 4 + 6)..<(2 + 2 + Int(turned[4]) << 8 + Int(turned[5]))])
        let exif = try #require(info.metadata.exif)
        #expect(exif.count == stored.count)
        let changed = exif.indices.filter { exif[$0] != stored[$0] }
        #expect(changed.count == 1 && stored[changed[0]] == 6 && exif[changed[0]] == 1)
        #expect(try JPEGCoder.orientation(of: turned) == .right)
        // No Exif, no XMP: nothing reported.
        #expect(try JPEGCoder().makeFrameSource(data: Self.plain, options: .default).info.metadata == EmbeddedMetadata())
    }
}
