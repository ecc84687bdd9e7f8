/// The parts of a file's colour description (`ColorInfo`) and metadata (`EmbeddedMetadata`)
/// that a file has, or that an encoder can write (`AnimatedImageEncoder.writableParts`).
public struct EmbeddedParts: OptionSet, Hashable, Sendable {
    /// The bits of the set, one per part.
    public let rawValue: UInt16

    /// Creates a set from its raw bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// An ICC profile.
    public static let iccProfile = EmbeddedParts(rawValue: 1 << 0)
    /// PNG's `sRGB` rendering intent.
    package static let srgbRenderingIntent = EmbeddedParts(rawValue: 1 << 1)
    /// PNG's `gAMA` gamma.
    package static let gamma = EmbeddedParts(rawValue: 1 << 2)
    /// PNG's `cHRM` chromaticities.
    package static let chromaticities = EmbeddedParts(rawValue: 1 << 3)
    /// H.273 code points (PNG `cICP`, AVIF `nclx`).
    public static let codePoints = EmbeddedParts(rawValue: 1 << 4)
    /// An Exif block.
    public static let exif = EmbeddedParts(rawValue: 1 << 5)
    /// An XMP packet.
    public static let xmp = EmbeddedParts(rawValue: 1 << 6)

    /// Every part.
    public static let all: EmbeddedParts = [
        .iccProfile, .srgbRenderingIntent, .gamma, .chromaticities, .codePoints,
        .exif, .xmp,
    ]

    /// The parts `color` and `metadata` hold.
    package init(color: ColorInfo, metadata: EmbeddedMetadata) {
        var parts: EmbeddedParts = []
        if color.iccProfile != nil { parts.insert(.iccProfile) }
        if color.srgbRenderingIntent != nil { parts.insert(.srgbRenderingIntent) }
        if color.gamma != nil { parts.insert(.gamma) }
        if color.chromaticities != nil { parts.insert(.chromaticities) }
        if color.codePoints != nil { parts.insert(.codePoints) }
        if metadata.exif != nil { parts.insert(.exif) }
        if metadata.xmp != nil { parts.insert(.xmp) }
        self = parts
    }

    /// The parts' names as messages say them, in a fixed order: "ICC profile", "sRGB
    /// intent", "gamma", "chromaticities", "H.273 code points", "Exif", "XMP".
    package var names: [String] {
        let named: [(EmbeddedParts, String)] = [
            (.iccProfile, "ICC profile"), (.srgbRenderingIntent, "sRGB intent"), (.gamma, "gamma"),
            (.chromaticities, "chromaticities"), (.codePoints, "H.273 code points"), (.exif, "Exif"), (.xmp, "XMP"),
        ]
        return named.filter { contains($0.0) }.map(\.1)
    }
}
