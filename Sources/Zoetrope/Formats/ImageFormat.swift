/// An image format: an open set, so a custom coder can bring one the core has never heard of.
///
/// Two formats are equal when their identifiers are equal.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// A short lowercase identifier, such as `"gif"`. Unique among registered coders.
    public let identifier: String
    /// The IANA media type, such as `"image/gif"`.
    public let mediaType: String
    /// File extensions without the dot, most common first. Informational only:
    /// the registry never decides a format from a file name.
    public let fileExtensions: [String]

    /// Creates a format description.
    public init(identifier: String, mediaType: String, fileExtensions: [String]) {
        self.identifier = identifier
        self.mediaType = mediaType
        self.fileExtensions = fileExtensions
    }

    /// Formats are the same when their identifiers are.
    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool {
        lhs.identifier == rhs.identifier
    }

    /// Hashes the identifier only, matching `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    /// The identifier, such as `gif`.
    public var description: String { identifier }
}

extension ImageFormat {
    /// GIF87a and GIF89a.
    public static let gif = ImageFormat(identifier: "gif", mediaType: "image/gif", fileExtensions: ["gif"])
    /// Animated PNG (a PNG with an `acTL` chunk before its first `IDAT`).
    public static let apng = ImageFormat(identifier: "apng", mediaType: "image/apng", fileExtensions: ["png", "apng"])
    /// A still PNG.
    public static let png = ImageFormat(identifier: "png", mediaType: "image/png", fileExtensions: ["png"])
    /// WebP, still or animated.
    public static let webp = ImageFormat(identifier: "webp", mediaType: "image/webp", fileExtensions: ["webp"])
    /// AVIF, still (`avif` brand) or image sequence (`avis` brand).
    public static let avif = ImageFormat(identifier: "avif", mediaType: "image/avif", fileExtensions: ["avif", "avifs"])
    /// A JPEG still (JFIF, Exif, baseline or progressive).
    public static let jpeg = ImageFormat(
        identifier: "jpeg", mediaType: "image/jpeg",
        fileExtensions: ["jpg", "jpeg", "jpe", "jfif", "jif"])
}
