/// Whether an image is animated, as far as its first bytes tell.
public enum AnimationKind: String, Sendable, Equatable {
    /// A single image.
    case still
    /// More than one frame, or a container that declares an animation.
    case animated
    /// The prefix does not say; decoding the header will.
    case unknown
}
