/// One run of compressed image data (an fdAT's payload after its sequence number), with the
/// CRC it needs once rewritten as an IDAT chunk.
struct APNGDataChunk: Sendable, Hashable {
    /// Byte offsets of the compressed data within the file.
    var range: Range<Int>
    /// CRC-32 of "IDAT" followed by the data.
    var idatCRC: UInt32
}
