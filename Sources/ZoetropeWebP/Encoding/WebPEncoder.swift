import CWebP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zoetrope

/// Writes animated WebP with libwebpmux's `WebPAnimEncoder`, which picks each frame's
/// sub-rectangle, blend and dispose modes itself.
///
/// Lossless is the default: `EncodingOptions.quality` nil encodes lossless with exact
/// colours (transparent pixels keep their RGB), so decoding gives back the input canvases
/// exactly. A quality 0–100 encodes lossy (VP8 with an alpha plane); `mixed` lets libwebp
/// choose lossy or lossless per frame, whichever is smaller (`allow_mixed`), at that quality
/// (75 when none is given). Durations are rounded to whole milliseconds, WebP's unit. Like
/// every `WebPAnimEncoder` user, expect a frame identical to the one before it to be merged
/// into it (one frame whose duration is the sum), and a single frame to be written as a
/// still image.
public struct WebPEncoder: AnimatedImageEncoder {
    /// libwebp's effort, 0 (fast) to 6 (small).
    public var method: Int
    /// Lossy or lossless per frame, whichever libwebp finds smaller (libwebp's `allow_mixed`).
    public var mixed: Bool

    /// An encoder with libwebp effort `method` (0–6); `mixed` picks lossy or lossless per frame.
    public init(method: Int = 4, mixed: Bool = false) {
        self.method = method
        self.mixed = mixed
    }

    /// Always `.webp`.
    public var encodingFormat: ImageFormat { .webp }

    /// Opens a streaming writer over a `WebPAnimEncoder`. Canvases are 1…16383 pixels a
    /// side; plays 1…65535 or infinite; quality nil (lossless) or 0…100.
    public func makeWriter(canvasSize: PixelSize, options: EncodingOptions) throws -> any AnimatedImageWriter {
        guard canvasSize.width >= 1, canvasSize.height >= 1,
              canvasSize.width <= 16383, canvasSize.height <= 16383 else {
            throw AnimatedImageError.invalidArgument("WebP canvases are 1…16383 pixels a side, got \(canvasSize)")
        }
        let loop: Int32
        switch options.loopCount {
        case .infinite: loop = 0
        case .plays(let n):
            guard (1...65535).contains(n) else {
                throw AnimatedImageError.invalidArgument("WebP stores 1…65535 plays (or forever), got \(n)")
            }
            loop = Int32(n)
        }
        try options.checkQuality()

        var encoderOptions = WebPAnimEncoderOptions()
        // WebPAnimEncoderOptionsInit() / WebPAnimEncoderNew() are static inlines over these.
        guard WebPAnimEncoderOptionsInitInternal(&encoderOptions, WEBP_MUX_ABI_VERSION) != 0 else {
            throw WebPStreamWriter.failure("encoder ABI version mismatch")
        }
        encoderOptions.anim_params.loop_count = loop
        encoderOptions.anim_params.bgcolor = 0 // transparent; decoders ignore it anyway
        encoderOptions.allow_mixed = mixed ? 1 : 0
        // Key-frame insertion stays off (libwebp's default, as img2webp): measured on the timer
        // input, gif2webp's 9…17 made the file 16 % larger (193,722 vs 167,046 bytes) and the
        // encode slower (two candidates per frame), for about 2 % less on the 1920×1080 one.

        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, Float(options.quality ?? 75),
                                     WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw WebPStreamWriter.failure("encoder ABI version mismatch")
        }
        if options.quality == nil && !mixed {
            config.lossless = 1
            config.exact = 1
        }
        config.method = Int32(max(0, min(6, method)))
        guard let encoder = WebPAnimEncoderNewInternal(Int32(canvasSize.width), Int32(canvasSize.height),
                                                       &encoderOptions, WEBP_MUX_ABI_VERSION) else {
            throw WebPStreamWriter.failure("could not create the animation encoder")
        }
        return WebPStreamWriter(encoder: encoder, canvasSize: canvasSize, config: config)
    }

    /// A duration rounded to the nearest whole millisecond.
    static func milliseconds(_ d: FrameDuration) -> Int {
        let ms = (Int128(d.numerator) * 1000 + Int128(d.denominator / 2)) / Int128(d.denominator)
        return ms > Int128(Int.max) ? .max : Int(ms)
    }
}
