import Zoetrope

/// The Exif and XMP a PNG or APNG file carries, read as the chunk walker visits chunks: the
/// first `eXIf` chunk's payload, and the text of the first `iTXt` chunk whose keyword is
/// `XML:com.adobe.xmp` (stored uncompressed, as the XMP specification requires; a
/// compressed one is not read). A chunk whose CRC does not match is ignored, as ancillary
/// chunks are, and so is one larger than `Limits.maxAllocationBytes`.
struct PNGMetadataChunks: Sendable {
    private(set) var metadata = EmbeddedMetadata.none

    static let eXIf = PNGChunkType.code("eXIf"), iTXt = PNGChunkType.code("iTXt")
    /// The keyword of XMP's `iTXt` chunk, and the NUL that ends it.
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8) + [0]

    /// Reads the chunk of `type` when it is one of these; returns how many of its bytes were
    /// read (for the walker's count of bytes examined).
    mutating func visit(type: UInt32, payload: UnsafeRawBufferPointer, storedCRC: UInt32, limits: Limits) -> Int {
        switch type {
        case Self.eXIf where metadata.exif == nil:
            guard payload.count <= limits.maxAllocationBytes, Self.crcMatches(type, payload, storedCRC) else { return 0 }
            metadata.exif = [UInt8](payload)
            return payload.count
        case Self.iTXt where metadata.xmp == nil:
            let keyword = Self.xmpKeyword
            guard payload.count >= keyword.count, payload.prefix(keyword.count).elementsEqual(keyword) else {
                return min(payload.count, keyword.count)
            }
            // Compression flag and method, then the language tag and translated keyword
            // (each NUL-terminated), then the text.
            var p = keyword.count
            guard payload.count >= p + 2, payload[p] == 0 else { return p }
            p += 2
            for _ in 0..<2 {
                guard let nul = payload[p...].firstIndex(of: 0) else { return payload.count }
                p = nul + 1
            }
            guard payload.count <= limits.maxAllocationBytes, Self.crcMatches(type, payload, storedCRC) else { return p }
            metadata.xmp = [UInt8](payload[p...])
            return payload.count
        default:
            return 0
        }
    }

    private static func crcMatches(_ type: UInt32, _ payload: UnsafeRawBufferPointer, _ stored: UInt32) -> Bool {
        CRC32.checksum(payload, continuing: CRC32.checksum(type: type)) == stored
    }
}
