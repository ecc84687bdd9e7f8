import Foundation

/// An encoder for one format. A coder may also adopt this.
public protocol AnimatedImageEncoder: Sendable {
    /// The format written.
    var encodingFormat: ImageFormat { get }
    /// Encodes full-canvas, straight-alpha frames of `canvasSize` into a file's bytes.
    func encode(_ frames: [EncodingFrame], canvasSize: PixelSize, options: EncodingOptions) throws -> Data
}

/// One frame to encode: a full canvas and how long it shows.
public struct EncodingFrame: Sendable {
    /// Straight-alpha RGBA8 pixels of the whole canvas.
    public var pixels: PixelBuffer
    /// The frame's duration, as the file will store it (rounded to the format's unit).
    public var duration: FrameDuration

    /// A frame of `pixels` shown for `duration`.
    public init(pixels: PixelBuffer, duration: FrameDuration) {
        self.pixels = pixels
        self.duration = duration
    }
}

/// Settings for `AnimatedImageEncoder`.
public struct EncodingOptions: Hashable, Sendable {
    /// Total plays to store.
    public var loopCount: LoopCount
    /// 0–100 for lossy formats; nil asks for lossless where the format has it.
    public var quality: Int?

    /// Options for a file that plays `loopCount` times, lossless unless `quality` is given.
    public init(loopCount: LoopCount = .infinite, quality: Int? = nil) {
        self.loopCount = loopCount
        self.quality = quality
    }
}
