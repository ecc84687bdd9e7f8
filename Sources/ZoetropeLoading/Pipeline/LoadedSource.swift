import Zoetrope

/// What a player request gets from a download: the whole image (from a cache, or a
/// download that finished first), or the session its bytes are flowing into.
enum LoadedSource: Sendable {
    case image(AnimatedImage)
    case stream(any IncrementalFrameSource)
}
