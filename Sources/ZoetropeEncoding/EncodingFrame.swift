import Zoetrope

/// One frame to encode: a full canvas and how long it shows.
public struct EncodingFrame: Sendable {
    /// RGBA pixels of the whole canvas, straight or premultiplied (see `AnimatedImageEncoder`
    /// for the rule every encoder follows), 8 or 16 bits per channel: APNG writes RGBA16
    /// frames as 16-bit PNG data and AVIF at its 10 or 12 bits from them; GIF and WebP round
    /// them to 8 bits.
    public var pixels: PixelBuffer
    /// The frame's duration, as the file will store it (rounded to the format's unit).
    public var duration: FrameDuration

    /// A frame of `pixels` shown for `duration`.
    public init(pixels: PixelBuffer, duration: FrameDuration) {
        self.pixels = pixels
        self.duration = duration
    }

    /// The pixels in straight alpha at `channelDepth`, after checking they cover
    /// `canvasSize`: what every encoder works from. Premultiplied pixels are unpremultiplied
    /// (the one rule of `AnimatedImageEncoder`); RGBA16 pixels asked for at 8 bits round to
    /// the nearest value, RGBA8 ones at 16 widen exactly, and nil keeps the frame's depth.
    /// Throws `.invalidArgument` naming frame `index` when the size is wrong.
    public func straightPixels(
        canvasSize: PixelSize, index: Int, channelDepth: ChannelDepth? = .eight
    ) throws(AnimatedImageError) -> PixelBuffer {
        guard pixels.size == canvasSize else {
            throw .invalidArgument("frame \(index) is \(pixels.size), the canvas is \(canvasSize)")
        }
        var p = pixels
        // Unpremultiplied at the frame's own depth, before any rounding.
        if p.format.alphaMode == .premultiplied { p.unpremultiplyAlpha() }
        if let channelDepth { p = p.converted(to: channelDepth) }
        return p
    }
}
