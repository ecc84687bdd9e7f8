/// Names one image at one output size and alpha mode in a `SharedFrameCache`.
public struct SharedFrameKey: Hashable, Sendable {
    public var imageKey: String
    public var size: PixelSize
    public var pixelFormat: PixelFormat

    public init(imageKey: String, size: PixelSize, pixelFormat: PixelFormat) {
        self.imageKey = imageKey
        self.size = size
        self.pixelFormat = pixelFormat
    }
}
