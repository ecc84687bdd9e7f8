extension PixelBuffer {
    /// Whether every pixel has the largest alpha, 255 or 65,535 (in either alpha mode).
    package var isOpaque: Bool {
        let rowBytes = width * format.bytesPerPixel
        // RGBA16 alpha is the two bytes at 6 and 7 of each pixel: both 255 when opaque.
        let (first, step) = format.channelDepth == .eight ? (3, 4) : (6, 8)
        return bytes.withUnsafeBytes { raw in
            for y in 0..<height {
                let row = y * bytesPerRow
                for i in stride(from: row + first, to: row + rowBytes, by: step) where raw[i] != 255 || raw[i + step / 4 - 1] != 255 {
                    return false
                }
            }
            return true
        }
    }
}
