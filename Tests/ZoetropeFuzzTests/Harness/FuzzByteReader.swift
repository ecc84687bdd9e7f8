import Foundation

/// Reads a fuzzer input as a stream of choices: its bytes in order, then (once they run
/// out) a pseudo-random stream seeded by the input's length, so a short input still fills
/// large frames and the same input always makes the same choices.
struct FuzzByteReader {
    private let bytes: [UInt8]
    private var offset = 0
    private var state: UInt64

    init(_ data: Data) {
        bytes = [UInt8](data)
        state = 0x9E37_79B9_7F4A_7C15 ^ UInt64(data.count)
    }

    /// The next byte of the input, or of the seeded stream after its end (splitmix64).
    mutating func byte() -> UInt8 {
        if offset < bytes.count {
            defer { offset += 1 }
            return bytes[offset]
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// A number in `0..<count` from one byte.
    mutating func below(_ count: Int) -> Int { Int(byte()) % count }

    /// A number in `0...65535` from two bytes.
    mutating func uint16() -> Int { Int(byte()) << 8 | Int(byte()) }
}
