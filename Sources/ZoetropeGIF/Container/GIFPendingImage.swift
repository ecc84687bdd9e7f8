/// An image whose descriptor the indexing pass has read and whose data it is reading.
struct GIFPendingImage: Sendable {
    /// The frame as the descriptor and its graphic control describe it.
    var record: GIFFrameRecord
    /// Offset of the image separator, for messages.
    var blockStart: Int
    /// The frame's index if it completes (for an empty image, the index it already has).
    var ordinal: Int
    /// Entries of the local colour table (0 without one).
    var localColorCount: Int
    /// Entries of the table the image uses: the local one, else the global one.
    var colorCount: Int

    /// No pixels: the frame is complete as soon as its descriptor is read.
    var isEmpty: Bool { record.rect.width == 0 || record.rect.height == 0 }
}
