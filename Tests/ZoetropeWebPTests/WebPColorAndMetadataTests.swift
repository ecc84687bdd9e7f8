import CWebP
import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// WebP's `ICCP`, `EXIF` and `XMP ` chunks: written by `WebPEncoder` where the container
/// specification puts them, read back byte for byte, and found by libwebp's demuxer.
@Suite struct WebPColorAndMetadataTests {
    static let size = PixelSize(width: 24, height: 16)
    static let full = EncodingOptions(
        loopCount: .plays(3), color: ColorInfo(iccProfile: ColorFixtures.iccProfile),
        metadata: ColorFixtures.metadata)

    static func frames(_ count: Int) -> [EncodingFrame] {
        WebPEncoderTests.canvases().prefix(count).map { EncodingFrame(pixels: $0, duration: .milliseconds(40)) }
    }

    /// The top-level chunks: tag, payload range.
    static func chunks(_ file: [UInt8]) -> [(tag: String, payload: Range<Int>)] {
        var result: [(String, Range<Int>)] = []
        var offset = 12
        while offset + 8 <= file.count {
            let size = Int(file[offset + 4]) | Int(file[offset + 5]) << 8 | Int(file[offset + 6]) << 16 | Int(file[offset + 7]) << 24
            result.append((String(decoding: file[offset..<offset + 4], as: UTF8.self), offset + 8..<offset + 8 + size))
            offset += 8 + size + (size & 1)
        }
        return result
    }

    /// The file without its ICCP/EXIF/XMP chunks, those VP8X flags cleared and the RIFF size
    /// fixed: what the encoder writes without them, if adding them changed nothing else.
    static func withoutDescription(_ file: [UInt8]) -> [UInt8] {
        var out = Array(file[0..<12])
        for c in chunks(file) where !["ICCP", "EXIF", "XMP "].contains(c.tag) {
            let end = c.payload.upperBound + (c.payload.count & 1)
            out += file[(c.payload.lowerBound - 8)..<end]
        }
        out[20] &= ~(0x20 | 0x08 | 0x04)
        let riff = out.count - 8
        out[4] = UInt8(riff & 0xFF); out[5] = UInt8(riff >> 8 & 0xFF); out[6] = UInt8(riff >> 16 & 0xFF); out[7] = UInt8(riff >> 24)
        return out
    }

    /// libwebp's demuxer's view of chunk `tag` (its first instance), as bytes.
    static func demuxedChunk(_ file: [UInt8], _ tag: String) -> [UInt8]? {
        file.withUnsafeBufferPointer { p -> [UInt8]? in
            var data = WebPData(bytes: p.baseAddress, size: p.count)
            guard let demux = WebPDemuxInternal(&data, 0, nil, WEBP_DEMUX_ABI_VERSION) else { return nil }
            defer { WebPDemuxDelete(demux) }
            var iter = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, tag, 1, &iter) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iter) }
            return [UInt8](UnsafeBufferPointer(start: iter.chunk.bytes, count: iter.chunk.size))
        }
    }

    @Test func animationKeepsProfileExifAndXMPInSpecOrder() throws {
        let file = [UInt8](try WebPEncoder().encode(Self.frames(4), canvasSize: Self.size, options: Self.full))
        let tags = Self.chunks(file).map(\.tag)
        #expect(Array(tags.prefix(3)) == ["VP8X", "ICCP", "ANIM"])
        #expect(Array(tags.suffix(2)) == ["EXIF", "XMP "])
        #expect(tags.dropFirst(3).dropLast(2).allSatisfy { $0 == "ANMF" })
        #expect(file[20] == 0x02 | 0x10 | 0x20 | 0x08 | 0x04)  // animation, alpha, ICC, EXIF, XMP
        #expect(Int(file[4]) | Int(file[5]) << 8 | Int(file[6]) << 16 | Int(file[7]) << 24 == file.count - 8)

        let source = try WebPCoder().makeFrameSource(data: Data(file), options: DecodingOptions(colorOutput: .stored))
        #expect(source.info.color == ColorInfo(iccProfile: ColorFixtures.iccProfile))
        #expect(source.info.metadata == ColorFixtures.metadata)
        // libwebp's demuxer finds the same bytes.
        #expect(Self.demuxedChunk(file, "ICCP") == ColorFixtures.iccProfile.data)
        #expect(Self.demuxedChunk(file, "EXIF") == ColorFixtures.exif)
        #expect(Self.demuxedChunk(file, "XMP ") == ColorFixtures.xmp)
        // Nothing else changed: without the three chunks it is the file written without them.
        let plain = [UInt8](
            try WebPEncoder().encode(
                Self.frames(4), canvasSize: Self.size,
                options: EncodingOptions(loopCount: .plays(3))))
        #expect(Self.withoutDescription(file) == plain)
        for i in 0..<4 { #expect(try source.decodeFrame(at: i) == WebPEncoderTests.canvases()[i], "frame \(i)") }
    }

    @Test func stillWithAProfileIsExtended() throws {
        let file = [UInt8](try WebPEncoder().encode(Self.frames(1), canvasSize: Self.size, options: Self.full))
        #expect(Self.chunks(file).map(\.tag) == ["VP8X", "ICCP", "VP8L", "EXIF", "XMP "])
        #expect(file[20] == 0x10 | 0x20 | 0x08 | 0x04)  // alpha, ICC, EXIF, XMP; no animation
        #expect(Int(file[24]) + 1 == Self.size.width && Int(file[27]) + 1 == Self.size.height)
        let source = try WebPCoder().makeFrameSource(data: Data(file), options: DecodingOptions(colorOutput: .stored))
        #expect(source.info.frameCount == 1)
        #expect(source.info.color.iccProfile == ColorFixtures.iccProfile)
        #expect(source.info.metadata == ColorFixtures.metadata)
        #expect(try source.decodeFrame(at: 0) == WebPEncoderTests.canvases()[0])
        #expect(Self.demuxedChunk(file, "ICCP") == ColorFixtures.iccProfile.data)
        // Only the profile: no EXIF/XMP chunks or flags.
        let profileOnly = [UInt8](
            try WebPEncoder().encode(
                Self.frames(1), canvasSize: Self.size,
                options: EncodingOptions(color: Self.full.color)))
        #expect(Self.chunks(profileOnly).map(\.tag) == ["VP8X", "ICCP", "VP8L"])
        #expect(profileOnly[20] == 0x10 | 0x20)
    }

    @Test func filesWithoutThemAreUnchanged() throws {
        for count in [1, 4] {
            let file = [UInt8](try WebPEncoder().encode(Self.frames(count), canvasSize: Self.size, options: EncodingOptions()))
            #expect(!Self.chunks(file).contains { ["ICCP", "EXIF", "XMP "].contains($0.tag) })
            let source = try WebPCoder().makeFrameSource(data: Data(file), options: .default)
            #expect(source.info.color == .unspecified)
            #expect(source.info.metadata == .none)
        }
        // The header of an animation without them is the 44 bytes it always was.
        let file = [UInt8](try WebPEncoder().encode(Self.frames(2), canvasSize: Self.size, options: EncodingOptions()))
        #expect(Self.chunks(file).prefix(2).map(\.tag) == ["VP8X", "ANIM"])
        #expect(Self.chunks(file)[2].payload.lowerBound - 8 == WebPContainer.headerSize)
    }

    @Test func chunksAreReadOnlyWithTheirFlagAndWithinBounds() throws {
        let file = [UInt8](try WebPEncoder().encode(Self.frames(2), canvasSize: Self.size, options: Self.full))
        // Flags cleared: the demuxer ignores the chunks, and so does Zoetrope.
        var unflagged = file
        unflagged[20] &= ~(0x20 | 0x08 | 0x04)
        var info = try WebPCoder().makeFrameSource(data: Data(unflagged), options: .default).info
        #expect(info.color == .unspecified && info.metadata == .none)
        // A file cut inside the XMP chunk: the profile and Exif before it are kept, the XMP is not.
        let xmp = Self.chunks(file).last!
        let cut = Array(file[0..<(xmp.payload.lowerBound + 10)])
        let chunks = cut.withUnsafeBytes { WebPMetadataChunks(bytes: $0) }
        #expect(chunks.iccProfile == ColorFixtures.iccProfile)
        #expect(chunks.metadata == EmbeddedMetadata(exif: ColorFixtures.exif))
        // An ICCP size past the end of the file: nothing read, nothing crashes.
        var huge = file
        huge[34] = 0xFF; huge[35] = 0xFF; huge[36] = 0xFF; huge[37] = 0x7F
        #expect(huge.withUnsafeBytes { WebPMetadataChunks(bytes: $0) } == WebPMetadataChunks())
        info = try WebPCoder().makeFrameSource(data: Data(file), options: .default).info
        #expect(info.color.iccProfile == ColorFixtures.iccProfile)
        // Every prefix: each chunk is reported exactly when all of its bytes are in.
        let ends = Self.chunks(file).reduce(into: [String: Int]()) { $0[$1.tag] = $0[$1.tag] ?? $1.payload.upperBound }
        for count in 0...file.count {
            let seen = file[0..<count].withUnsafeBytes { WebPMetadataChunks(bytes: $0) }
            #expect((seen.iccProfile != nil) == (count >= ends["ICCP"]!), "\(count) bytes")
            #expect((seen.metadata.exif != nil) == (count >= ends["EXIF"]!), "\(count) bytes")
            #expect((seen.metadata.xmp != nil) == (count >= ends["XMP "]!), "\(count) bytes")
        }
    }
}
