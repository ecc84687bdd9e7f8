/// RFC 9111's delta-seconds (`max-age`, `Age`): ASCII digits only. A value past 2^31 is
/// 2^31 (§1.2.2: a cache must treat an overflowing value as that), so any string of
/// digits, however long, is a number and never a trap.
enum HTTPDeltaSeconds {
    static let maximum = 2_147_483_648

    /// The seconds `text` states (surrounding spaces and a quoted value allowed), or nil when
    /// it is not delta-seconds.
    static func parse<S: StringProtocol>(_ text: S) -> Int? {
        var bytes = Substring(text).utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        if bytes.count >= 2, bytes.first == 0x22, bytes.last == 0x22 { bytes = bytes.dropFirst().dropLast() }
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = min(value * 10 + Int(byte - 0x30), maximum)
        }
        return value
    }
}
