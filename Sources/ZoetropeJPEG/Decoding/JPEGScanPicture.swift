import Zoetrope

/// The picture of the scans of a JPEG complete so far, as an incremental session drew it:
/// the stored raster (RGBA8, CMYK already converted), handed out as `JPEGFrameSource`
/// hands out a whole-file decode (turned by the orientation, scaled, converted to sRGB).
struct JPEGScanPicture: Sendable {
    /// The stored picture, opaque RGBA8.
    var raster: PixelBuffer
    var orientation: JPEGOrientation
    var colorTransform: (any ColorTransform)?

    /// Writes the picture into `buffer` as `options` ask, by the same steps as
    /// `JPEGFrameSource.decodeFrame`, so the last picture equals the whole-file frame.
    func write(into buffer: inout PixelBuffer, options: DecodingOptions) {
        let stored = raster.size, shown = orientation.displayedSize(of: stored)
        let size = options.outputSize(forCanvas: shown)
        if orientation == .up && size == shown && options.pixelFormat.channelDepth == .eight {
            buffer.format = options.pixelFormat
            buffer.reshape(width: stored.width, height: stored.height)
            let rowBytes = stored.width * 4, from = raster.bytesPerRow, to = buffer.bytesPerRow
            raster.bytes.withUnsafeBytes { src in
                buffer.bytes.withUnsafeMutableBytes { dst in
                    for y in 0..<stored.height {
                        (dst.baseAddress! + y * to).copyMemory(from: src.baseAddress! + y * from, byteCount: rowBytes)
                    }
                }
            }
            if let colorTransform { buffer.applyColorTransform(colorTransform) }
            return
        }
        let turned = orientation == .up ? raster : JPEGColor.oriented(raster, orientation)
        turned.copy(into: &buffer, size: size, format: options.pixelFormat, colorTransform: colorTransform)
    }
}
