/// One frame to encode: a full canvas and how long it shows.
public struct EncodingFrame: Sendable {
    /// RGBA8 pixels of the whole canvas, straight or premultiplied (see `AnimatedImageEncoder`
    /// for the rule every encoder follows).
    public var pixels: PixelBuffer
    /// The frame's duration, as the file will store it (rounded to the format's unit).
    public var duration: FrameDuration

    /// A frame of `pixels` shown for `duration`.
    public init(pixels: PixelBuffer, duration: FrameDuration) {
        self.pixels = pixels
        self.duration = duration
    }

    /// The pixels in straight alpha, after checking they cover `canvasSize`: what every
    /// encoder works from. Premultiplied pixels are unpremultiplied (the one rule of
    /// `AnimatedImageEncoder`). Throws `.invalidArgument` naming frame `index` when the
    /// size is wrong.
    public func straightPixels(canvasSize: PixelSize, index: Int) throws(AnimatedImageError) -> PixelBuffer {
        guard pixels.size == canvasSize else {
            throw .invalidArgument("frame \(index) is \(pixels.size), the canvas is \(canvasSize)")
        }
        var p = pixels
        if p.format.alphaMode == .premultiplied { p.unpremultiplyAlpha() }
        return p
    }
}
