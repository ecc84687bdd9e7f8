/// The kinds of GIF extension the indexing pass tells apart.
enum GIFExtensionKind: Hashable, Sendable {
    /// A graphic control extension (0xF9): delay, disposal and transparency of the next image.
    case graphicControl
    /// An application extension (0xFF), which may be a NETSCAPE2.0/ANIMEXTS1.0 loop block.
    case application
    /// Comments, plain text, unknown extensions: skipped.
    case other
}
