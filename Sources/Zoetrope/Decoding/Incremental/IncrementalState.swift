/// Where an incremental source stands: still receiving, complete, or failed.
public enum IncrementalState: Hashable, Sendable {
    /// More bytes are expected: frames may still be added, and the info may still grow.
    case receiving
    /// The info is final: the file's end marker was read (a GIF trailer, a PNG's `IEND`),
    /// the file broke in a way that keeps the frames before the break, or `finish()` was
    /// called. Bytes appended from now on are ignored.
    case complete
    /// The file cannot be decoded (a broken header, a passed limit): `append` and `finish`
    /// throw this error from now on. Frames reported complete before it still decode.
    case failed(AnimatedImageError)
}
