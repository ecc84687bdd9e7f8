/// Metadata a file carries beside its pixels, kept as bytes so that conversion can copy it.
public struct EmbeddedMetadata: Hashable, Sendable {
    /// The Exif block (TIFF header onwards), from PNG `eXIf`, WebP `EXIF` or AVIF `Exif`.
    public var exif: [UInt8]?
    /// The XMP packet, from PNG `iTXt` `XML:com.adobe.xmp`, WebP `XMP ` or AVIF `mime` items.
    public var xmp: [UInt8]?

    /// Creates metadata; both parts are absent by default.
    public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
    }

    /// No metadata.
    public static let none = EmbeddedMetadata()

    /// Whether there is anything to keep.
    package var isEmpty: Bool { exif == nil && xmp == nil }
}
