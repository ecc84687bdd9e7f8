/// How `GIFEncoder` spreads the error of colours that had to be quantised (frames with more
/// than 256 colours). Frames that fit a palette are never dithered: they are exact.
public enum GIFDither: String, Hashable, Sendable, CaseIterable {
    /// Nearest palette colour: flat areas stay flat and compress best.
    case none
    /// An 8×8 Bayer matrix: a fixed pattern that stays put from frame to frame.
    case ordered
    /// Floyd–Steinberg error diffusion: the smoothest gradients, the largest files.
    case floydSteinberg = "fs"
}
