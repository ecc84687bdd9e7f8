/// Big-endian fields and boxes, for the boxes Zoetrope writes into libavif's output.
enum ISOWriter {
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) }

    /// A box of `type` around `payload` (32-bit size).
    static func box(_ type: StaticString, _ payload: [UInt8]) -> [UInt8] {
        box(ISOBox.code(type), payload)
    }

    /// A box of packed `type` around `payload` (32-bit size).
    static func box(_ type: UInt32, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(payload.count + 8)) + u32(type) + payload
    }

    /// Reads a big-endian unsigned field of `size` bytes (0, 4 or 8) at `offset`.
    static func read(_ bytes: [UInt8], _ offset: Int, size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[offset + i]) }
        return v
    }

    /// Writes `value` big-endian into `size` bytes at `offset`.
    static func write(_ bytes: inout [UInt8], _ offset: Int, size: Int, _ value: UInt64) {
        for i in 0..<size { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - i))) }
    }
}
