import Zoetrope

/// The pixel work after libjpeg-turbo: CMYK to RGBA, and Exif orientation.
enum JPEGColor {
    /// Converts packed 8-bit CMYK to opaque RGBA8 in place, without colour management.
    ///
    /// `inverted`: the file has an Adobe marker, and stores 255 for no ink (Photoshop's
    /// convention, which libjpeg-turbo keeps): red = C × K / 255. Otherwise 0 is no ink:
    /// red = (255 − C) × (255 − K) / 255. Firefox decides the same way.
    static func convertCMYK(_ pixels: UnsafeMutableRawBufferPointer, inverted: Bool) {
        let p = pixels.bindMemory(to: UInt8.self)
        var o = 0
        while o + 4 <= p.count {
            var c = UInt32(p[o]), m = UInt32(p[o + 1]), y = UInt32(p[o + 2]), k = UInt32(p[o + 3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            p[o] = UInt8((c * k + 127) / 255)
            p[o + 1] = UInt8((m * k + 127) / 255)
            p[o + 2] = UInt8((y * k + 127) / 255)
            p[o + 3] = 255
            o += 4
        }
    }

    /// The stored raster turned by `orientation`: a new buffer of the displayed size.
    static func oriented(_ stored: PixelBuffer, _ orientation: JPEGOrientation) -> PixelBuffer {
        let w = stored.width, h = stored.height
        let size = orientation.displayedSize(of: stored.size)
        var out = PixelBuffer(width: size.width, height: size.height)
        let srcStride = stored.bytesPerRow, dstStride = out.bytesPerRow
        stored.bytes.withUnsafeBytes { srcRaw in
            out.bytes.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.bindMemory(to: UInt32.self), dst = dstRaw.bindMemory(to: UInt32.self)
                let srcRow = srcStride / 4, dstRow = dstStride / 4
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let s = orientation.storedPixel(x: x, y: y, width: w, height: h)
                        dst[y * dstRow + x] = src[s.y * srcRow + s.x]
                    }
                }
            }
        }
        return out
    }
}
