import CPNG

/// PNG's CRC-32, through zlib (already linked by libpng), which is much faster than a
/// byte-at-a-time table and can combine checksums of adjacent byte runs.
enum CRC32 {
    /// The CRC of `bytes`, continuing from `crc` (0 starts a new checksum).
    @inline(__always)
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        // Chunk payloads are at most 2³¹−1 bytes, so one call always suffices.
        return UInt32(truncatingIfNeeded: crc32(uLong(crc), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    /// The CRC of A followed by B, from the CRC of A, the CRC of B and B's length.
    @inline(__always)
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), .init(secondLength)))
    }

    /// The CRC of a chunk type's four bytes.
    static func checksum(type: UInt32) -> UInt32 {
        var be = type.bigEndian
        return withUnsafeBytes(of: &be) { checksum($0) }
    }
}
