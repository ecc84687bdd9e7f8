/// A 64-bit hash that reads eight bytes at a time in four independent lanes: the checksum
/// of a disk-cache entry's body and header. It catches changed and cut bytes; it is not a
/// defence against someone who writes entries on purpose (a folder the process can write
/// is trusted that far).
enum StripeHash64 {
    private static let prime1: UInt64 = 0x9e37_79b9_7f4a_7c15
    private static let prime2: UInt64 = 0xc2b2_ae3d_27d4_eb4f
    private static let prime3: UInt64 = 0x1656_67b1_9e37_79f9
    private static let prime4: UInt64 = 0x85eb_ca77_c2b2_ae63

    /// The hash of `bytes`.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var lanes = (seed &+ prime1, seed ^ prime2, seed &- prime3, seed &+ prime4)
        while count - offset >= 32 {
            lanes.0 = round(lanes.0, word(bytes, offset))
            lanes.1 = round(lanes.1, word(bytes, offset + 8))
            lanes.2 = round(lanes.2, word(bytes, offset + 16))
            lanes.3 = round(lanes.3, word(bytes, offset + 24))
            offset += 32
        }
        var h = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
        h = (h ^ UInt64(truncatingIfNeeded: count)) &* prime1
        while count - offset >= 8 {
            h = rotate(h ^ round(0, word(bytes, offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        // The last 0–7 bytes as one little-endian word, their count in the top byte.
        var tail = UInt64(count - offset) << 56
        for i in 0..<(count - offset) { tail |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        h = rotate(h ^ round(0, tail), 23) &* prime2 &+ prime3
        // Every input bit reaches every output bit.
        h ^= h >> 33
        h &*= prime2
        h ^= h >> 29
        h &*= prime3
        h ^= h >> 32
        return h
    }

    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotate(lane &+ word &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
