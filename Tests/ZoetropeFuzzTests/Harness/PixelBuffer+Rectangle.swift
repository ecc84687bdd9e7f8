import Zoetrope

extension PixelBuffer {
    /// Paints the rectangle at (`x`, `y`), clipped to the buffer, with one RGBA8 value.
    /// Built on public API only: the fuzz package links the library as an outside package.
    mutating func paint(x: Int, y: Int, width: Int, height: Int, _ rgba: [UInt8]) {
        for row in max(0, y)..<min(self.height, y + height) {
            for column in max(0, x)..<min(self.width, x + width) { setPixel(x: column, y: row, rgba) }
        }
    }
}
