/// What a coder says about the leading bytes of some data.
public enum SniffResult: Sendable, Equatable {
    /// The bytes are this format; the `AnimationKind` says whether the prefix already
    /// shows an animation, a still image, or cannot tell yet.
    case match(ImageFormat, AnimationKind)
    /// The bytes are not this coder's format.
    case noMatch
    /// The prefix is too short to decide; ask again with at least `minimumLength` bytes.
    case needMoreData(minimumLength: Int)
}
