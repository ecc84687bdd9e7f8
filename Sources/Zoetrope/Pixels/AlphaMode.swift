/// How colour relates to alpha in a pixel buffer.
public enum AlphaMode: String, Hashable, Sendable {
    /// Colour channels are independent of alpha (what PNG files store).
    case straight
    /// Colour channels are already multiplied by alpha (what most GPU and 2D APIs want).
    case premultiplied
}
