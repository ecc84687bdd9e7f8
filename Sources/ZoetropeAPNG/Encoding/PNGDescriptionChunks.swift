import CPNG
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The chunks that describe a PNG's colour and carry its metadata, as `APNGEncoder` writes
/// them between `IHDR` and `acTL` (before `PLTE` and `IDAT`, where the PNG specification
/// requires the colour chunks; `eXIf` and `iTXt` may be there too):
///
/// - `iCCP`: the profile, named "ICC profile", compression method 0 (zlib).
/// - `sRGB`: the rendering intent, only without a profile (the two must not both appear).
/// - `gAMA`, `cHRM`: as given.
/// - `cICP`: the primaries and transfer as given; the matrix written as 0 and the range as
///   full, since a PNG's values are full-range RGB whatever the source's coding was (PNG
///   allows no other). Code points above 255 do not fit the chunk and are not written.
/// - `eXIf`: the Exif block.
/// - `iTXt` with keyword `XML:com.adobe.xmp`, uncompressed, no language: the XMP packet.
enum PNGDescriptionChunks {
    static let iCCP = PNGChunkType.code("iCCP"), sRGB = PNGChunkType.code("sRGB"), gAMA = PNGChunkType.code("gAMA"),
        cHRM = PNGChunkType.code("cHRM"), cICP = PNGChunkType.code("cICP")
    /// The profile name written in `iCCP` (the profile's own description is inside it).
    static let profileName = "ICC profile"

    /// The chunks for `color` and `metadata`, in the order written; none for nothing given.
    static func chunks(color: ColorInfo, metadata: EmbeddedMetadata) throws -> [(type: UInt32, payload: Data)] {
        var result: [(type: UInt32, payload: Data)] = []
        if let profile = color.iccProfile {
            var payload = Data(profileName.utf8)
            payload += [0, 0]  // the name's terminator, compression method 0
            payload += try deflate(profile.data)
            result.append((iCCP, payload))
        } else if let intent = color.srgbRenderingIntent {
            result.append((sRGB, Data([intent])))
        }
        if let gamma = color.gamma { result.append((gAMA, be32([gamma]))) }
        if let c = color.chromaticities {
            result.append((cHRM, be32([c.whiteX, c.whiteY, c.redX, c.redY, c.greenX, c.greenY, c.blueX, c.blueY])))
        }
        if let points = color.codePoints, points.primaries <= 255, points.transfer <= 255 {
            result.append((cICP, Data([UInt8(points.primaries), UInt8(points.transfer), 0, 1])))
        }
        if let exif = metadata.exif { result.append((PNGMetadataChunks.eXIf, Data(exif))) }
        if let xmp = metadata.xmp {
            var payload = Data(PNGMetadataChunks.xmpKeyword)  // keyword and its NUL
            payload += [0, 0, 0, 0]  // uncompressed, method 0, empty language tag, empty translated keyword
            payload += xmp
            result.append((PNGMetadataChunks.iTXt, payload))
        }
        for chunk in result where chunk.payload.count > 0x7FFF_FFFF {
            throw AnimatedImageError.invalidArgument(
                "a PNG chunk holds at most 2³¹−1 bytes; the \(PNGChunkType.name(chunk.type)) chunk would have \(chunk.payload.count)")
        }
        return result
    }

    /// `bytes` as a zlib stream (zlib's best compression).
    static func deflate(_ bytes: [UInt8]) throws -> Data {
        guard bytes.count <= Int(UInt32.max) / 2 else {
            throw AnimatedImageError.invalidArgument("the ICC profile of \(bytes.count) bytes is too large for a PNG")
        }
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, bytes, uLong(bytes.count), Z_BEST_COMPRESSION)
        guard status == Z_OK else {
            throw AnimatedImageError.codecFailure(format: .png, library: "zlib", message: "compress2 failed (\(status))")
        }
        return Data(out[0..<Int(size)])
    }

    private static func be32(_ values: [UInt32]) -> Data {
        var d = Data()
        for v in values { APNGEncoder.appendBE32(&d, v) }
        return d
    }
}
