/// FNV-1a, 64 bits: the disk cache's file names (a hash of the URL; the entry itself says
/// which URL it holds).
struct FNV1a {
    private(set) var value: UInt64

    init(seed: UInt64 = 0xcbf2_9ce4_8422_2325) { value = seed }

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }
}
