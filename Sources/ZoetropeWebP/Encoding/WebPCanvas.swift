import CWebP
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A full canvas of ARGB pixels in libwebp's layout (one `UInt32` a pixel, alpha in the top
/// byte), allocated once per writer; frame rectangles are handed to libwebp as views of it.
///
/// "The previous canvas" here is always what a decoder shows before the next frame: the
/// source's previous canvas, or that canvas with the previous frame's rectangle cleared to
/// transparent black when the previous frame is disposed to the background.
final class WebPCanvas {
    let width: Int
    let height: Int
    let pixels: UnsafeMutablePointer<UInt32>

    /// A transparent black canvas, as every play of a WebP animation starts. Zeroed by
    /// `calloc`: a large canvas takes memory only where it is written, so a still image's
    /// writer, which never writes its second canvas, holds one.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let count = max(1, width * height)
        pixels = calloc(count, MemoryLayout<UInt32>.stride)!.bindMemory(to: UInt32.self, capacity: count)
    }

    deinit { free(pixels) }

    var fullRect: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Loads straight-alpha RGBA8 pixels of the same size.
    func load(_ buffer: PixelBuffer) {
        let w = width, stride = buffer.bytesPerRow
        buffer.bytes.withUnsafeBytes { raw in
            for y in 0..<height {
                let row = pixels + y * w, src = raw.baseAddress! + y * stride
                for x in 0..<w {
                    // R, G, B, A bytes read as one little-endian word are 0xAABBGGRR: swapping
                    // R and B gives libwebp's 0xAARRGGBB, a loop the compiler vectorizes.
                    let v = UInt32(littleEndian: src.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self))
                    row[x] = (v & 0xFF00_FF00) | (v & 0xFF) << 16 | (v >> 16) & 0xFF
                }
            }
        }
    }

    /// Copies every pixel of `other` (same size).
    func copy(from other: WebPCanvas) {
        pixels.update(from: other.pixels, count: width * height)
    }

    /// A libwebp picture that views `rect` of this canvas (no copy; valid while the canvas lives).
    func view(_ rect: PixelRect) -> WebPPicture {
        var picture = WebPPicture()
        _ = WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION)
        picture.use_argb = 1
        picture.width = Int32(rect.width)
        picture.height = Int32(rect.height)
        picture.argb = pixels + rect.y * width + rect.x
        picture.argb_stride = Int32(width)
        return picture
    }
}
