import Zoetrope

/// What `TransformCache` files a transform under: a `ColorSource` with an ICC profile's
/// bytes replaced by their SHA-256, so a key costs a few dozen bytes however big the
/// profile (a JPEG may carry 16 MB).
enum TransformKey: Hashable, Sendable {
    /// The SHA-256 of the profile's bytes, as hex, and their count.
    case profile(sha256: String, byteCount: Int)
    case codePoints(primaries: UInt16, transfer: UInt16)
    case chromaticities(Chromaticities, gamma: UInt32)
    case gamma(UInt32)

    init(_ source: ColorSource) {
        switch source {
        case .profile(let bytes): self = .profile(sha256: SHA256.hex(bytes), byteCount: bytes.count)
        case .codePoints(let primaries, let transfer): self = .codePoints(primaries: primaries, transfer: transfer)
        case .chromaticities(let c, let gamma): self = .chromaticities(c, gamma: gamma)
        case .gamma(let gamma): self = .gamma(gamma)
        }
    }

    /// Bytes an entry's key and bookkeeping take, counted beside its transform's.
    static let entryOverhead = 256
}
