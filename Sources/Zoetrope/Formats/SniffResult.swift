/// What a coder says about the leading bytes of some data.
public enum SniffResult: Sendable, Equatable {
    /// The bytes are this format. `animation` says whether the prefix already shows
    /// an animation, a still image, or cannot tell yet.
    case match(ImageFormat, AnimationKind)
    /// The bytes are not this coder's format.
    case noMatch
    /// The prefix is too short to decide; ask again with at least `minimumLength` bytes.
    case needMoreData(minimumLength: Int)
}

/// Whether an image is animated, as far as its first bytes tell.
public enum AnimationKind: String, Sendable, Equatable {
    /// A single image.
    case still
    /// More than one frame, or a container that declares an animation.
    case animated
    /// The prefix does not say; decoding the header will.
    case unknown
}
