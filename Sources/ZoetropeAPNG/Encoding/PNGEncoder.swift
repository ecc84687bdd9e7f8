import CPNG
import CZoetropePNG
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes one straight-alpha RGBA buffer as a PNG: RGBA8 through libpng's simplified API
/// (which reports errors by return value, so libpng never long-jumps across Swift frames),
/// RGBA16 as 16-bit PNG data through a C function that catches libpng's errors itself.
public struct PNGEncoder: Sendable {
    /// Favour speed over size (libpng's `PNG_IMAGE_FLAG_FAST`: a lower zlib effort).
    public var fast: Bool

    /// An encoder; `fast` (the default) trades a somewhat larger file for a much quicker
    /// encode (Docs/Benchmarks.md, "PNG output").
    public init(fast: Bool = true) {
        self.fast = fast
    }

    /// Encodes `pixels` as an RGBA PNG of their depth, 8 or 16 bits (premultiplied pixels
    /// are unpremultiplied first).
    public func encode(_ pixels: PixelBuffer) throws -> Data {
        try encode(pixels, region: PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height))
    }

    /// Encodes the `region` of `pixels` as an RGBA PNG of that size and of their depth, 8
    /// or 16 bits. Premultiplied pixels are unpremultiplied first, the rule every Zoetrope
    /// encoder follows.
    package func encode(_ pixels: PixelBuffer, region: PixelRect) throws -> Data {
        guard pixels.format.alphaMode == .straight else {
            var straight = pixels
            straight.unpremultiplyAlpha()
            return try encode(straight, region: region)
        }
        guard pixels.width > 0, pixels.height > 0 else {
            throw AnimatedImageError.invalidArgument("PNGEncoder needs at least one pixel, got \(pixels.size)")
        }
        let bounds = PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height)
        guard !region.isEmpty, region.intersection(bounds) == region else {
            throw AnimatedImageError.invalidArgument("PNGEncoder region \(region) is not inside \(pixels.size)")
        }
        guard pixels.bytesPerRow <= Int(Int32.max) else {
            throw AnimatedImageError.invalidArgument("PNGEncoder rows of \(pixels.bytesPerRow) bytes are too long for libpng")
        }
        if pixels.format.channelDepth == .sixteen { return try encode16(pixels, region: region) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(region.width)
        image.height = UInt32(region.height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA, a macro Swift cannot import
        if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        let stride = Int32(pixels.bytesPerRow)  // in components (bytes, for 8-bit RGBA)
        let start = region.y * pixels.bytesPerRow + region.x * 4
        var size: png_alloc_size_t = 0
        // First call sizes the output, second writes it.
        let sized = pixels.bytes.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress! + start, stride, nil)
        }
        guard sized != 0 else { throw PNGEncoder.failure(&image) }
        var out = Data(count: Int(size))
        let written = out.withUnsafeMutableBytes { dst in
            pixels.bytes.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, dst.baseAddress, &size, 0, raw.baseAddress! + start, stride, nil)
            }
        }
        guard written != 0 else { throw PNGEncoder.failure(&image) }
        out.count = Int(size)
        png_image_free(&image)
        return out
    }

    private func encode16(_ pixels: PixelBuffer, region: PixelRect) throws -> Data {
        let start = region.y * pixels.bytesPerRow + region.x * 8
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.bytes.withUnsafeBytes { raw in
            zoetrope_png_encode_rgba16(
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + start, UInt32(region.width), UInt32(region.height),
                pixels.bytesPerRow, fast ? 1 : 0, &out, &count, &message, message.count)
        }
        guard status == 0, let out else {
            let text = message.withUnsafeBufferPointer { String(decoding: $0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            throw AnimatedImageError.codecFailure(format: .png, library: "libpng", message: text.isEmpty ? "16-bit PNG write failed" : text)
        }
        defer { zoetrope_png_free(out) }
        return Data(bytes: out, count: count)
    }

    private static func failure(_ image: inout png_image) -> AnimatedImageError {
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&image)
        return .codecFailure(format: .png, library: "libpng", message: message)
    }
}
