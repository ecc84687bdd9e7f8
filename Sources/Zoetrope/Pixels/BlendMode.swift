/// How a frame's pixels combine with the canvas under them.
package enum BlendMode: String, Hashable, Sendable, CaseIterable {
    /// Replace the canvas pixels, alpha included (APNG SOURCE, WebP "do not blend").
    case source
    /// Alpha-composite over the canvas, on straight-alpha values (APNG OVER, WebP blend, GIF).
    case over
}
