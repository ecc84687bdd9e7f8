import Zoetrope

/// WebP's "blend" with libwebp's own integer arithmetic, so frames match libwebp's
/// `WebPAnimDecoder` and Chromium (which uses the same formula) byte for byte.
///
/// The formula is an approximation of straight-alpha "over": the destination's weight is
/// `αd·(256 − αs) >> 8` instead of `αd·(255 − αs) / 255`, and each colour channel is
/// divided by the blended alpha by multiplying with `2²⁴ / α` and shifting right by 24,
/// which truncates. The error accumulates frame after frame (a frame blended over a
/// partly transparent canvas eleven times drifts by about ten steps from the exact
/// result), and browsers show the drifted values, so WebP uses them; the other formats
/// keep the `Compositor`'s exact rounding.
///
/// As in libwebp, a source pixel with α = 255 replaces the destination, one with α = 0
/// keeps it, and pixels inside the previous frame's rectangle when that frame was
/// disposed to the background are not blended at all: the decoded pixel is kept as is
/// (libwebp treats blending over those just-cleared pixels as a no-op).
enum WebPBlend {
    /// Blends one straight-alpha RGBA8 pixel `s` over `d`, in place.
    @inline(__always)
    static func blendPixel(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>) {
        let sa = UInt32(s[3])
        if sa == 255 {
            d.update(from: s, count: 4)
            return
        }
        if sa == 0 { return }
        let dstFactor = (UInt32(d[3]) * (256 - sa)) >> 8
        let alpha = sa + dstFactor  // < 256: libwebp asserts it
        let scale = (UInt32(1) << 24) / alpha
        for c in 0..<3 {
            let unscaled = UInt32(s[c]) * sa + UInt32(d[c]) * dstFactor
            d[c] = UInt8(truncatingIfNeeded: (unscaled &* scale) >> 24)
        }
        d[3] = UInt8(truncatingIfNeeded: alpha)
    }

    /// Blends `count` pixels of `s` over `d`.
    static func blendRow(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count {
            blendPixel(d + i * 4, s + i * 4)
        }
    }

    /// Draws a decoded frame (`pixels`: `rect.height` rows of `rect.width` pixels,
    /// `bytesPerRow` apart) onto the canvas, whose pixel at `rect`'s top-left is at `canvas`
    /// and whose rows are `canvasBytesPerRow` apart, with libwebp's blend. `unblended` is the
    /// previous frame's rectangle when that frame was disposed to the background (nil
    /// otherwise): there the frame's pixels are copied, not blended.
    static func draw(
        _ pixels: UnsafeRawBufferPointer, bytesPerRow: Int, rect: PixelRect,
        unblended: PixelRect?, onto canvas: UnsafeMutableRawPointer, canvasBytesPerRow stride: Int
    ) {
        guard !rect.isEmpty else { return }
        precondition(pixels.count >= bytesPerRow * (rect.height - 1) + rect.width * 4, "frame pixels smaller than their rectangle")
        // Copied, not blended: where the frame overlaps the just-cleared rectangle.
        let copied = unblended.map { rect.intersection($0) } ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        let left = copied.x - rect.x, right = copied.x + copied.width - rect.x
        let dst = canvas.assumingMemoryBound(to: UInt8.self)
        let src = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for row in 0..<rect.height {
            let y = rect.y + row
            let d = dst + row * stride
            let s = src + row * bytesPerRow
            guard !copied.isEmpty, y >= copied.y, y < copied.y + copied.height else {
                blendRow(d, s, count: rect.width)
                continue
            }
            blendRow(d, s, count: left)
            (d + left * 4).update(from: s + left * 4, count: (right - left) * 4)
            blendRow(d + right * 4, s + right * 4, count: rect.width - right)
        }
    }
}
