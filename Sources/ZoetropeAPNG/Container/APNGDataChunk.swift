/// One chunk of compressed image data (an IDAT's payload, or an fdAT's after its sequence
/// number), with what is needed to check its CRC and to hand it to libpng as an IDAT chunk.
struct APNGDataChunk: Sendable, Hashable {
    /// Byte offsets of the compressed data within the file.
    var range: Range<Int>
    /// CRC-32 of the part of the chunk before `range`: "IDAT", or "fdAT" and the sequence number.
    var headCRC: UInt32
    /// The CRC the file stores for the chunk.
    var storedCRC: UInt32

    /// Checks the stored CRC against `data` (the bytes at `range`) and returns the CRC of
    /// "IDAT" followed by `data`, or nil when the chunk is damaged. One pass over the data.
    func idatCRC(data: UnsafeRawBufferPointer) -> UInt32? {
        let dataCRC = CRC32.checksum(data)
        guard CRC32.combine(headCRC, dataCRC, secondLength: data.count) == storedCRC else { return nil }
        return CRC32.combine(APNGDataChunk.idatTypeCRC, dataCRC, secondLength: data.count)
    }

    static let idatTypeCRC = CRC32.checksum(type: PNGChunkType.IDAT)
}
