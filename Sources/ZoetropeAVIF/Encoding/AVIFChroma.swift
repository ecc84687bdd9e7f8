/// Chroma subsampling of the YUV planes `AVIFEncoder` writes.
public enum AVIFChroma: String, Hashable, Sendable, CaseIterable {
    /// Half-resolution chroma both ways: the smallest files, softer colour edges.
    case yuv420 = "420"
    /// Full-resolution chroma (and what lossless uses).
    case yuv444 = "444"
}
