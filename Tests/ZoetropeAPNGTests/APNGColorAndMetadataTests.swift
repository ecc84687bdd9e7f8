import CPNG
import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// PNG's colour and metadata chunks as `APNGEncoder` writes them (`iCCP`, `sRGB`, `gAMA`,
/// `cHRM`, `cICP`, `eXIf`, XMP `iTXt`, before `acTL`), libpng's verdict on them, and the
/// decoder reading `eXIf` and the XMP `iTXt` back.
@Suite struct APNGColorAndMetadataTests {
    static let size = PixelSize(width: 6, height: 4)
    static let frames: [EncodingFrame] = (0..<3).map { k in
        EncodingFrame(
            pixels: APNGEncoderTests.canvas(6, 4) { x, y in [UInt8(x * 40), UInt8(y * 60 + k * 10), 90, x == k ? 128 : 255] },
            duration: .milliseconds(40))
    }
    static let chromaticities = Chromaticities(
        whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000,
        greenX: 30000, greenY: 60000, blueX: 15000, blueY: 6000)
    static let full = ColorInfo(
        iccProfile: ColorFixtures.iccProfile, gamma: 45455, chromaticities: chromaticities,
        codePoints: ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true))

    /// The chunks after the signature: type and payload.
    static func chunks(_ file: [UInt8]) -> [(type: String, payload: [UInt8])] {
        var result: [(String, [UInt8])] = []
        var o = 8
        while o + 12 <= file.count {
            let n = Int(file[o]) << 24 | Int(file[o + 1]) << 16 | Int(file[o + 2]) << 8 | Int(file[o + 3])
            result.append((String(decoding: file[o + 4..<o + 8], as: UTF8.self), Array(file[o + 8..<o + 8 + n])))
            o += 12 + n
        }
        return result
    }

    static func inflate(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: size + 16)
        var length = uLong(out.count)
        guard uncompress(&out, &length, bytes, uLong(bytes.count)) == Z_OK else { return nil }
        return Array(out[0..<Int(length)])
    }

    /// libpng's simplified reader over the file: nil when it read the image without a
    /// warning or error, else its message.
    static func libpngComplaint(_ file: [UInt8]) -> String? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let begun = file.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { return "begin: " + message(&image) }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var pixels = [UInt8](repeating: 0, count: Int(image.width * image.height * 4))
        let read = png_image_finish_read(&image, nil, &pixels, 0, nil)
        guard read != 0, image.warning_or_error == 0 else { return "finish: " + message(&image) }
        return nil
    }

    static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    @Test func everyChunkIsWrittenBeforeTheAnimationAndReadBack() throws {
        let options = EncodingOptions(loopCount: .plays(2), color: Self.full, metadata: ColorFixtures.metadata)
        let file = [UInt8](try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: options))
        let chunks = Self.chunks(file)
        #expect(chunks.prefix(8).map(\.type) == ["IHDR", "iCCP", "gAMA", "cHRM", "cICP", "eXIf", "iTXt", "acTL"])
        // iCCP: name, NUL, method 0, the zlib stream of the profile exactly.
        let iccp = chunks[1].payload
        #expect(Array(iccp.prefix(13)) == Array("ICC profile".utf8) + [0, 0])
        #expect(Self.inflate(Array(iccp.dropFirst(13)), size: ColorFixtures.iccProfile.data.count) == ColorFixtures.iccProfile.data)
        #expect(chunks[2].payload == [0, 0, 0xB1, 0x8F])  // 45455
        #expect(chunks[3].payload.count == 32 && Array(chunks[3].payload.prefix(4)) == [0, 0, 0x7A, 0x26])  // 31270
        #expect(chunks[4].payload == [12, 13, 0, 1])
        #expect(chunks[5].payload == ColorFixtures.exif)
        #expect(chunks[6].payload == Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + ColorFixtures.xmp)
        // libpng reads it all without a warning (it checks the CRCs, the chunk order and the profile).
        #expect(Self.libpngComplaint(file) == nil)

        let source = try Fixture.source(Data(file), options: DecodingOptions(colorOutput: .stored))
        #expect(source.info.format == .apng)
        #expect(source.info.metadata == ColorFixtures.metadata)
        for i in 0..<3 { #expect(try source.decodeFrame(at: i) == Self.frames[i].pixels, "frame \(i)") }
        // Without the description chunks it is the file written without them, byte for byte.
        let plain = [UInt8](try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(loopCount: .plays(2))))
        var stripped = Array(file[0..<8]), o = 8
        while o < file.count {
            let n = Int(file[o]) << 24 | Int(file[o + 1]) << 16 | Int(file[o + 2]) << 8 | Int(file[o + 3])
            let type = String(decoding: file[o + 4..<o + 8], as: UTF8.self)
            if !["iCCP", "gAMA", "cHRM", "cICP", "eXIf", "iTXt"].contains(type) { stripped += file[o..<o + 12 + n] }
            o += 12 + n
        }
        #expect(stripped == plain)
        #expect(!Self.chunks(plain).contains { ["iCCP", "sRGB", "gAMA", "cHRM", "cICP", "eXIf", "iTXt"].contains($0.type) })
        #expect(try Fixture.source(Data(plain)).info.metadata == .none)
    }

    @Test func sRGBIsWrittenOnlyWithoutAProfile() throws {
        let srgb = ColorInfo(srgbRenderingIntent: 0, gamma: 45455)
        let file = [UInt8](try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(color: srgb)))
        #expect(Self.chunks(file).prefix(4).map(\.type) == ["IHDR", "sRGB", "gAMA", "acTL"])
        #expect(Self.chunks(file)[1].payload == [0])
        #expect(Self.libpngComplaint(file) == nil)
        var both = srgb
        both.iccProfile = ColorFixtures.iccProfile
        let withProfile = [UInt8](try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(color: both)))
        #expect(Self.chunks(withProfile).prefix(4).map(\.type) == ["IHDR", "iCCP", "gAMA", "acTL"])
        // libpng does judge the profile: four bytes are not one.
        let bogus = [UInt8](
            try APNGEncoder().encode(
                Self.frames, canvasSize: Self.size,
                options: EncodingOptions(color: ColorInfo(iccProfile: ICCProfile(data: [1, 2, 3, 4])))))
        #expect(Self.libpngComplaint(bogus) != nil)
    }

    @Test func metadataReadingIsBoundedAndChecked() throws {
        let file = [UInt8](
            try APNGEncoder().encode(
                Self.frames, canvasSize: Self.size,
                options: EncodingOptions(metadata: ColorFixtures.metadata)))
        func metadata(_ bytes: [UInt8], limits: Limits = .default) throws -> EmbeddedMetadata {
            try bytes.withUnsafeBytes { try APNGChunkWalker.index($0, limits: limits) }.metadata
        }
        #expect(try metadata(file) == ColorFixtures.metadata)
        // A damaged CRC: that chunk is ignored, the other kept.
        var damaged = file
        let exifAt = 8 + 25  // after the signature and IHDR
        try #require(String(decoding: damaged[exifAt + 4..<exifAt + 8], as: UTF8.self) == "eXIf")
        damaged[exifAt + 8] ^= 1
        #expect(try metadata(damaged) == EmbeddedMetadata(xmp: ColorFixtures.xmp))
        // A compressed XMP iTXt is not read (the XMP specification forbids it).
        var compressed = file
        let itxtAt = exifAt + 12 + ColorFixtures.exif.count
        let flagAt = itxtAt + 8 + "XML:com.adobe.xmp".utf8.count + 1
        compressed[flagAt] = 1
        let crc = Self.crc(Array(compressed[itxtAt + 4..<itxtAt + 8 + 22 + ColorFixtures.xmp.count]))
        let crcAt = itxtAt + 8 + 22 + ColorFixtures.xmp.count
        compressed.replaceSubrange(crcAt..<crcAt + 4, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect(try metadata(compressed) == EmbeddedMetadata(exif: ColorFixtures.exif))
        // Past the allocation limit: not copied.
        var small = Limits.default
        small.maxAllocationBytes = ColorFixtures.xmp.count
        #expect(try metadata(file, limits: small).xmp == nil)
        // A file cut inside the iTXt chunk: the Exif before it is kept.
        let cut = Array(file[0..<(itxtAt + 40)])
        var walker = APNGChunkWalker(limits: .default)
        try cut.withUnsafeBytes { try walker.advance($0) }
        #expect(walker.metadataChunks.metadata == EmbeddedMetadata(exif: ColorFixtures.exif))
        // Every prefix, walked in one go and in growing pieces: each chunk counts once its CRC is in.
        let exifEnd = exifAt + 12 + ColorFixtures.exif.count, itxtEnd = itxtAt + 12 + 22 + ColorFixtures.xmp.count
        var growing = APNGChunkWalker(limits: .default)
        for count in 8...file.count {
            var once = APNGChunkWalker(limits: .default)
            try file[0..<count].withUnsafeBytes { try once.advance($0) }
            try file[0..<count].withUnsafeBytes { try growing.advance($0) }
            let expected = EmbeddedMetadata(
                exif: count >= exifEnd ? ColorFixtures.exif : nil,
                xmp: count >= itxtEnd ? ColorFixtures.xmp : nil)
            #expect(once.metadataChunks.metadata == expected, "\(count) bytes")
            #expect(growing.metadataChunks.metadata == expected, "\(count) bytes, in pieces")
        }
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        UInt32(crc32(0, bytes, uInt(bytes.count)))
    }
}
