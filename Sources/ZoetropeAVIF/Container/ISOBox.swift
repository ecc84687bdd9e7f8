/// One ISOBMFF box header located in a byte buffer: its type and where its payload lies.
struct ISOBox: Hashable, Sendable {
    /// The four-character type, big-endian packed (`"moov"` is 0x6D6F6F76).
    let type: UInt32
    /// Offset of the box's first header byte.
    let start: Int
    /// Offset of the first payload byte (after size, type and any 64-bit size).
    let payloadStart: Int
    /// Offset one past the box's last byte.
    let end: Int

    /// The payload's byte range.
    var payload: Range<Int> { payloadStart..<end }

    /// The type as text, for error messages.
    var typeName: String { ISOBox.name(of: type) }

    /// Packs a four-character code.
    static func code(_ text: StaticString) -> UInt32 {
        precondition(text.utf8CodeUnitCount == 4, "a box type has four characters")
        let p = text.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    /// Unpacks a four-character code, replacing non-printable bytes with `?`.
    static func name(of code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> UInt32($0)) }
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
