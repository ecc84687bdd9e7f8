import CPNG
import Zoetrope

/// Decodes one plain PNG stream to 8-bit RGBA through libpng's simplified API, which
/// reports errors by return value: libpng never long-jumps across Swift frames.
///
/// Every colour type and bit depth (palette, grey, grey+alpha, RGB, RGBA, 1–16 bits, tRNS)
/// arrives as straight-alpha RGBA8. 16-bit samples are scaled, not gamma-converted: the
/// simplified API would otherwise treat 16-bit data without gAMA as linear light.
enum LibPNGDecoder {
    /// Decodes `stream` (a `width`×`height` PNG) into `destination`, rows `bytesPerRow` apart.
    static func decode(_ stream: UnsafeRawBufferPointer, width: Int, height: Int,
                       into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
                       format: ImageFormat) throws(AnimatedImageError) {
        guard bytesPerRow <= Int(Int32.max) else {
            throw .limitExceeded(format: format, limit: .width, requested: width, allowed: Int(Int32.max) / 4)
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, stream.baseAddress, stream.count) != 0 else {
            throw failure(&image, format: format)
        }
        guard Int(image.width) == width, Int(image.height) == height else {
            png_image_free(&image)
            throw .codecFailure(format: format, library: "libpng", message: "frame stream is \(image.width)×\(image.height), expected \(width)×\(height)")
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) // PNG_FORMAT_RGBA
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        guard png_image_finish_read(&image, nil, destination, Int32(bytesPerRow), nil) != 0 else {
            throw failure(&image, format: format)
        }
    }

    private static func failure(_ image: inout png_image, format: ImageFormat) -> AnimatedImageError {
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&image)
        return .codecFailure(format: format, library: "libpng", message: message)
    }
}
