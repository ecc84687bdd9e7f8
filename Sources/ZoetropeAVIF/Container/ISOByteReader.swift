import Zoetrope

/// A bounds-checked big-endian cursor over part of a byte buffer. Every read past the end
/// throws a typed error naming the box being read, so a short box never reads out of bounds.
struct ISOByteReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    let end: Int
    /// The box being read, for error messages (`"elst"`).
    let context: String

    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, context: String) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the buffer")
        self.bytes = bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
        self.context = context
    }

    var remaining: Int { end - offset }

    private mutating func take(_ n: Int) throws(AnimatedImageError) -> Int {
        guard n >= 0, n <= end - offset else {
            throw .invalidData(format: .avif, reason: "box '\(context)' is truncated (needs \(n) more bytes, has \(end - offset))")
        }
        defer { offset += n }
        return offset
    }

    mutating func skip(_ n: Int) throws(AnimatedImageError) { _ = try take(n) }

    mutating func u8() throws(AnimatedImageError) -> UInt8 { bytes[try take(1)] }

    mutating func u16() throws(AnimatedImageError) -> UInt16 {
        let o = try take(2)
        return UInt16(bytes[o]) << 8 | UInt16(bytes[o + 1])
    }

    mutating func u32() throws(AnimatedImageError) -> UInt32 {
        let o = try take(4)
        return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
    }

    mutating func u64() throws(AnimatedImageError) -> UInt64 {
        let hi = try u32()
        return UInt64(hi) << 32 | UInt64(try u32())
    }

    /// A full box's version byte and 24-bit flags.
    mutating func versionAndFlags() throws(AnimatedImageError) -> (version: UInt8, flags: UInt32) {
        let v = try u32()
        return (UInt8(v >> 24), v & 0x00FF_FFFF)
    }

    /// A NUL-terminated UTF-8 string (the rest of the box when there is no NUL).
    mutating func cString() throws(AnimatedImageError) -> String {
        var bytesOut: [UInt8] = []
        while offset < end {
            let b = try u8()
            if b == 0 { break }
            bytesOut.append(b)
        }
        return String(decoding: bytesOut, as: UTF8.self)
    }
}
