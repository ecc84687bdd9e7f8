import Zoetrope

/// The colour profile and metadata an extended WebP file carries: its `ICCP`, `EXIF` and
/// `XMP ` chunks, read as libwebp's demuxer reads them — only in a file with a `VP8X`
/// chunk, only when `VP8X` sets the chunk's flag (ICC 0x20, EXIF 0x08, XMP 0x04), the first
/// of each kind counting.
///
/// The walk reads chunk headers only (payloads are skipped by their size, bounds-checked
/// against the RIFF size and the bytes present) and copies just the three payloads it keeps.
/// A chunk that reaches past the bytes present ends the walk: what came before it is kept.
struct WebPMetadataChunks: Hashable, Sendable {
    var iccProfile: ICCProfile?
    var metadata = EmbeddedMetadata.none

    static let iccFlag: UInt8 = 0x20, exifFlag: UInt8 = 0x08, xmpFlag: UInt8 = 0x04

    /// What the file declares about colour: its ICC profile, if any (WebP has no other tagging).
    var color: ColorInfo { ColorInfo(iccProfile: iccProfile) }

    /// Nothing found.
    init() {}

    /// Reads the chunks of the file `b` (all of it, or the part received so far).
    init(bytes b: UnsafeRawBufferPointer) {
        guard b.count >= 30, WebPChunkScanner.fourCC(b, 0) == "RIFF", WebPChunkScanner.fourCC(b, 8) == "WEBP",
            WebPChunkScanner.fourCC(b, 12) == "VP8X", WebPChunkScanner.le32(b, 16) >= 10
        else { return }
        let flags = b[20]
        let wanted = flags & (Self.iccFlag | Self.exifFlag | Self.xmpFlag)
        guard wanted != 0 else { return }
        // The RIFF end as declared, never past the bytes present.
        let end = min(b.count, 8 + WebPChunkScanner.le32(b, 4))
        let vp8xSize = WebPChunkScanner.le32(b, 16)
        guard vp8xSize <= WebPChunkWalker.maxChunkPayload else { return }
        var offset = 20 + vp8xSize + (vp8xSize & 1)
        var found: UInt8 = 0
        while offset <= end - 8, found != wanted {
            let size = WebPChunkScanner.le32(b, offset + 4)
            let payload = offset + 8
            // size ≤ 2^32 - 1 and offset < 2^32 + 8, so the sum cannot overflow an Int.
            guard size <= end - payload else { return }
            let bit: UInt8
            switch WebPChunkScanner.fourCC(b, offset) {
            case "ICCP": bit = Self.iccFlag
            case "EXIF": bit = Self.exifFlag
            case "XMP ": bit = Self.xmpFlag
            default: bit = 0
            }
            if bit & wanted != 0, found & bit == 0 {
                found |= bit
                let bytes = [UInt8](b[payload..<(payload + size)])
                switch bit {
                case Self.iccFlag: iccProfile = ICCProfile(data: bytes)
                case Self.exifFlag: metadata.exif = bytes
                default: metadata.xmp = bytes
                }
            }
            offset = payload + size + (size & 1)
        }
    }
}
