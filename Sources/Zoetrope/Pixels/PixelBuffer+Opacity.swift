extension PixelBuffer {
    /// Whether every pixel has alpha 255 (in either alpha mode).
    public var isOpaque: Bool {
        let rowBytes = width * format.bytesPerPixel
        return bytes.withUnsafeBytes { raw in
            for y in 0..<height {
                let row = y * bytesPerRow
                for i in stride(from: row + 3, to: row + rowBytes, by: 4) where raw[i] != 255 { return false }
            }
            return true
        }
    }
}
