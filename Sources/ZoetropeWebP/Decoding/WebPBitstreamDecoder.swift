import CWebP
import Zoetrope

/// Decodes one frame's image chunks (`VP8 `, `VP8L`, or `ALPH` + `VP8 `) with libwebp's
/// still-image decoder, straight into memory the caller owns.
enum WebPBitstreamDecoder {
    /// Decodes `payload` as straight-alpha RGBA8 into `destination`: `height` rows of
    /// `width` pixels, `bytesPerRow` apart. The frame must be exactly `width`×`height`.
    static func decode(
        _ payload: UnsafeRawBufferPointer, width: Int, height: Int,
        into destination: UnsafeMutableRawPointer, bytesPerRow: Int, frame: Int,
        threads: Bool = false
    ) throws {
        var config = WebPDecoderConfig()
        // WebPInitDecoderConfig() is a static inline over this versioned entry point.
        guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
            throw AnimatedImageError.codecFailure(format: .webp, library: "libwebp", message: "decoder ABI version mismatch")
        }
        config.options.use_threads = threads ? 1 : 0
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.width = Int32(width)
        config.output.height = Int32(height)
        config.output.u.RGBA.rgba = destination.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(bytesPerRow)
        config.output.u.RGBA.size = bytesPerRow * (height - 1) + width * 4
        let status = WebPDecode(payload.baseAddress?.assumingMemoryBound(to: UInt8.self), payload.count, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw error(for: status, frame: frame) }
    }

    static func error(for status: VP8StatusCode, frame: Int) -> AnimatedImageError {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY:
            return .codecFailure(format: .webp, library: "libwebp", message: "out of memory decoding frame \(frame)")
        case VP8_STATUS_NOT_ENOUGH_DATA:
            return .invalidData(format: .webp, reason: "frame \(frame): its image bitstream ends early")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return .unsupported(format: .webp, feature: "a bitstream feature libwebp does not support (frame \(frame))")
        case VP8_STATUS_INVALID_PARAM:
            return .invalidData(format: .webp, reason: "frame \(frame): its size does not match its bitstream")
        default:
            return .invalidData(format: .webp, reason: "frame \(frame): corrupt image bitstream (libwebp status \(status.rawValue))")
        }
    }
}
