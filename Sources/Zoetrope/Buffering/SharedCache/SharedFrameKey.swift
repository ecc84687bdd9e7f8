/// Names one image at one output size and alpha mode in a `SharedFrameCache`.
package struct SharedFrameKey: Hashable, Sendable {
    /// The application's name for the image (a URL, a content hash…).
    package var imageKey: String
    /// The size frames are decoded at.
    package var size: PixelSize
    /// Straight or premultiplied alpha.
    package var pixelFormat: PixelFormat

    /// A key for `imageKey` at `size` in `pixelFormat`.
    package init(imageKey: String, size: PixelSize, pixelFormat: PixelFormat) {
        self.imageKey = imageKey
        self.size = size
        self.pixelFormat = pixelFormat
    }
}
