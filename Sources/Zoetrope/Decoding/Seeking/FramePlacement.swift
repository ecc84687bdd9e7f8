/// Where one frame lands on the canvas and how it combines with what is under it: what
/// the restart-point rule (`KeyFrameTable`) needs to know about a frame, before any pixel
/// is decoded.
package struct FramePlacement: Hashable, Sendable {
    /// The frame's rectangle as stored; the parts outside the canvas are ignored.
    package var rect: PixelRect
    /// What happens to the rectangle after the frame has been shown.
    package var dispose: DisposeMode
    /// How the frame's pixels combine with the canvas under them.
    package var blend: BlendMode
    /// Every pixel of the rectangle is drawn, and drawn opaque (GIF: no transparent index;
    /// APNG: a colour type without alpha and no tRNS; WebP: no alpha in the bitstream).
    /// A frame whose data turns out to stop early is not opaque (`KeyFrameTable.markIncomplete`).
    package var isOpaque: Bool

    /// A placement; `isOpaque` defaults to false, the safe answer when unsure.
    package init(rect: PixelRect, dispose: DisposeMode, blend: BlendMode, isOpaque: Bool = false) {
        self.rect = rect
        self.dispose = dispose
        self.blend = blend
        self.isOpaque = isOpaque
    }
}
