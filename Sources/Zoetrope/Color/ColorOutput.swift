/// Which values decoded frames hold when a file declares a colour space other than sRGB.
public enum ColorOutput: String, Hashable, Sendable {
    /// Converted to sRGB: what a colour-managed browser shows.
    case sRGB
    /// The values the file stores, unconverted; `AnimationInfo.color` says what they mean.
    case stored
}
