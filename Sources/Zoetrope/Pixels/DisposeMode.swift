/// What happens to a frame's rectangle after the frame has been shown.
package enum DisposeMode: String, Hashable, Sendable, CaseIterable {
    /// Leave the frame on the canvas (GIF 0/1, APNG NONE, WebP "do not dispose").
    case none
    /// Clear the frame's rectangle to transparent black (GIF 2, APNG BACKGROUND, WebP
    /// "dispose to background"). The background colour stored in GIF and WebP files is ignored.
    case background
    /// Restore the rectangle to what it was before the frame was drawn (GIF 3, APNG PREVIOUS).
    case previous
}
