/// Which pixels of a frame a decode that broke off had written, so the rest can be made
/// transparent: rows before the break in its pass, and every pixel of earlier passes
/// (Adam7 for an interlaced image, one pass otherwise).
enum PNGRowCoverage {
    /// The Adam7 pass (0–6) of each pixel of an 8×8 block, row by row.
    private static let adam7: [UInt8] = [
        0, 5, 3, 5, 1, 5, 3, 5,
        6, 6, 6, 6, 6, 6, 6, 6,
        4, 5, 4, 5, 4, 5, 4, 5,
        6, 6, 6, 6, 6, 6, 6, 6,
        2, 5, 3, 5, 2, 5, 3, 5,
        6, 6, 6, 6, 6, 6, 6, 6,
        4, 5, 4, 5, 4, 5, 4, 5,
        6, 6, 6, 6, 6, 6, 6, 6,
    ]

    /// Sets every pixel of the `width`×`height` RGBA image at `pixels` (`bytesPerPixel` 4 or
    /// 8) that the decode did not reach to transparent black. The break happened reading
    /// image row `row` of `pass`.
    static func clearUndecoded(
        _ pixels: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int,
        interlaced: Bool, pass: Int, row: Int, bytesPerPixel: Int = 4
    ) {
        for y in 0..<height {
            let line = pixels + y * bytesPerRow
            guard interlaced else {
                if y >= row { line.initializeMemory(as: UInt8.self, repeating: 0, count: width * bytesPerPixel) }
                continue
            }
            for x in 0..<width {
                let p = Int(adam7[(y & 7) * 8 + (x & 7)])
                if p > pass || (p == pass && y >= row) {
                    (line + x * bytesPerPixel).initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerPixel)
                }
            }
        }
    }
}
