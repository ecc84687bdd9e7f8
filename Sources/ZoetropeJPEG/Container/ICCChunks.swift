/// An ICC profile split over `APP2` segments (ICC.1, annex B.4): each payload is
/// `ICC_PROFILE\0`, its number (1-based), the number of chunks, then its part of the profile.
struct ICCChunks {
    /// What an ICC `APP2` payload starts with.
    static let signature = Array("ICC_PROFILE".utf8) + [0]

    private var parts: [Int: [UInt8]] = [:]
    private var count: Int?
    /// A chunk that contradicts the others (another count, a number out of range, a number
    /// seen twice): the profile is not used, as browsers ignore a broken one.
    private var broken = false

    /// Adds one `APP2` payload that starts with `signature`.
    mutating func add(_ payload: UnsafeRawBufferPointer) {
        let header = Self.signature.count + 2
        guard payload.count >= header else { broken = true; return }
        let number = Int(payload[Self.signature.count]), total = Int(payload[Self.signature.count + 1])
        guard total >= 1, (1...total).contains(number), count == nil || count == total, parts[number] == nil else {
            broken = true
            return
        }
        count = total
        parts[number] = Array(payload[header...])
    }

    /// The whole profile when every chunk arrived and none contradicted another.
    var profile: [UInt8]? {
        guard !broken, let count, parts.count == count else { return nil }
        return (1...count).flatMap { parts[$0]! }
    }
}
