import CWebP
import Foundation
import Zoetrope

/// Writes animated WebP with libwebpmux's `WebPAnimEncoder`, which picks each frame's
/// sub-rectangle, blend and dispose modes itself.
///
/// `EncodingOptions.quality` nil encodes lossless with exact colours (transparent pixels
/// keep their RGB), so decoding gives back the input canvases exactly; 0–100 encodes lossy.
/// Durations are rounded to whole milliseconds, WebP's unit. Like every `WebPAnimEncoder`
/// user, expect a frame identical to the one before it to be merged into it (one frame
/// whose duration is the sum), and a single frame to be written as a still image.
public struct WebPEncoder: AnimatedImageEncoder {
    /// libwebp's effort, 0 (fast) to 6 (small).
    public var method: Int

    /// An encoder with libwebp effort `method` (0–6).
    public init(method: Int = 4) {
        self.method = method
    }

    public var encodingFormat: ImageFormat { .webp }

    public func encode(_ frames: [EncodingFrame], canvasSize: PixelSize, options: EncodingOptions) throws -> Data {
        guard !frames.isEmpty else { throw AnimatedImageError.invalidArgument("WebPEncoder needs at least one frame") }
        guard canvasSize.width >= 1, canvasSize.height >= 1,
              canvasSize.width <= 16383, canvasSize.height <= 16383 else {
            throw AnimatedImageError.invalidArgument("WebP canvases are 1…16383 pixels a side, got \(canvasSize)")
        }
        for (i, frame) in frames.enumerated() where frame.pixels.size != canvasSize {
            throw AnimatedImageError.invalidArgument("frame \(i) is \(frame.pixels.size), the canvas is \(canvasSize)")
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
        var timestamps: [Int] = []
        var end = 0
        for (i, frame) in frames.enumerated() {
            let ms = WebPEncoder.milliseconds(frame.duration)
            guard ms <= 0xFF_FFFF else {
                throw AnimatedImageError.invalidArgument("frame \(i) lasts \(frame.duration); WebP stores at most 16777215 ms")
            }
            timestamps.append(end)
            end += ms
            guard end <= Int(Int32.max) else { throw AnimatedImageError.invalidArgument("the animation is longer than 2^31 ms") }
        }
        if let q = options.quality, !(0...100).contains(q) {
            throw AnimatedImageError.invalidArgument("quality is 0…100, got \(q)")
        }

        var encoderOptions = WebPAnimEncoderOptions()
        // WebPAnimEncoderOptionsInit() / WebPAnimEncoderNew() are static inlines over these.
        guard WebPAnimEncoderOptionsInitInternal(&encoderOptions, WEBP_MUX_ABI_VERSION) != 0 else {
            throw failure("encoder ABI version mismatch")
        }
        encoderOptions.anim_params.loop_count = loop
        encoderOptions.anim_params.bgcolor = 0 // transparent; decoders ignore it anyway
        guard let encoder = WebPAnimEncoderNewInternal(Int32(canvasSize.width), Int32(canvasSize.height),
                                                       &encoderOptions, WEBP_MUX_ABI_VERSION) else {
            throw failure("could not create the animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, Float(options.quality ?? 75),
                                     WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw failure("encoder ABI version mismatch")
        }
        if options.quality == nil {
            config.lossless = 1
            config.exact = 1
        }
        config.method = Int32(max(0, min(6, method)))

        for (i, frame) in frames.enumerated() {
            var picture = WebPPicture()
            guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else { throw failure("picture ABI mismatch") }
            picture.use_argb = 1
            picture.width = Int32(canvasSize.width)
            picture.height = Int32(canvasSize.height)
            defer { WebPPictureFree(&picture) }
            var pixels = frame.pixels
            if pixels.format.alphaMode == .premultiplied { pixels.unpremultiplyAlpha() }
            let imported = pixels.bytes.withUnsafeBytes { raw in
                WebPPictureImportRGBA(&picture, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(pixels.bytesPerRow))
            }
            guard imported != 0 else { throw failure("could not import frame \(i) (out of memory)") }
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamps[i]), &config) != 0 else {
                throw failure("frame \(i): " + errorText(encoder))
            }
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else { throw failure(errorText(encoder)) }
        var output = WebPData(bytes: nil, size: 0)
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw failure(errorText(encoder))
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Data(bytes: bytes, count: output.size)
    }

    /// A duration rounded to the nearest whole millisecond.
    static func milliseconds(_ d: FrameDuration) -> Int {
        let ms = (Int128(d.numerator) * 1000 + Int128(d.denominator / 2)) / Int128(d.denominator)
        return ms > Int128(Int.max) ? .max : Int(ms)
    }

    private func errorText(_ encoder: OpaquePointer) -> String {
        guard let text = WebPAnimEncoderGetError(encoder) else { return "unknown error" }
        return String(cString: text)
    }

    private func failure(_ message: String) -> AnimatedImageError {
        .codecFailure(format: .webp, library: "libwebpmux", message: message)
    }
}
