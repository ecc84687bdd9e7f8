/// Names one image at one output size and alpha mode in a `SharedFrameCache`.
public struct SharedFrameKey: Hashable, Sendable {
    /// The application's name for the image (a URL, a content hash…).
    public var imageKey: String
    /// The size frames are decoded at.
    public var size: PixelSize
    /// Straight or premultiplied alpha.
    public var pixelFormat: PixelFormat

    /// A key for `imageKey` at `size` in `pixelFormat`.
    public init(imageKey: String, size: PixelSize, pixelFormat: PixelFormat) {
        self.imageKey = imageKey
        self.size = size
        self.pixelFormat = pixelFormat
    }
}
