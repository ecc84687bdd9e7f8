import Zoetrope

/// Turns a straight-alpha RGBA frame into terminal text: each character cell shows two
/// pixels stacked, the top one as the foreground of "▀" and the bottom one as the
/// background, in 24-bit colour. Fully transparent pixels show the terminal's own
/// background; partly transparent ones are blended over black.
///
/// Without colour (`NO_COLOR`), each cell is a character from a brightness ramp.
struct HalfBlockRenderer {
    /// Whether to use colour escape sequences.
    var color = true

    private static let ramp: [Character] = Array(" .:-=+*#%@")

    /// The cells a frame of `size` pixels takes when scaled to fit `columns` × `rows`
    /// cells, keeping its aspect ratio (a cell is one pixel wide and two pixels tall).
    static func fit(_ size: PixelSize, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard size.width > 0, size.height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let target = DecodingOptions(targetSize: PixelSize(width: columns, height: rows * 2)).outputSize(forCanvas: size)
        return (target.width, (target.height + 1) / 2)
    }

    /// Escape sequences drawing `frame` (already at the cell size: width = columns,
    /// height = 2 × rows) with its top-left cell at 1-based (`row`, `column`).
    func render(_ frame: PixelBuffer, row: Int, column: Int) -> String {
        var out = ""
        out.reserveCapacity(frame.width * (frame.height / 2 + 1) * (color ? 24 : 2))
        let rows = (frame.height + 1) / 2
        for r in 0..<rows {
            out += "\u{1B}[\(row + r);\(column)H"
            var lastFG: [UInt8]? = nil, lastBG: [UInt8]? = nil
            for x in 0..<frame.width {
                let top = Self.pixel(frame, x, 2 * r)
                let bottom = 2 * r + 1 < frame.height ? Self.pixel(frame, x, 2 * r + 1) : nil
                guard color else {
                    out.append(Self.rampCharacter(top, bottom))
                    continue
                }
                switch (top, bottom) {
                case (nil, nil):
                    if lastBG != nil { out += "\u{1B}[49m"; lastBG = nil }
                    out += " "
                case (let t?, nil):
                    if lastBG != nil { out += "\u{1B}[49m"; lastBG = nil }
                    if lastFG != t { out += Self.fg(t); lastFG = t }
                    out += "▀"
                case (nil, let b?):
                    if lastBG != nil { out += "\u{1B}[49m"; lastBG = nil }
                    if lastFG != b { out += Self.fg(b); lastFG = b }
                    out += "▄"
                case (let t?, let b?):
                    if lastFG != t { out += Self.fg(t); lastFG = t }
                    if lastBG != b { out += Self.bg(b); lastBG = b }
                    out += "▀"
                }
            }
            if color { out += "\u{1B}[0m" }
        }
        return out
    }

    /// The RGB of a pixel blended over black, or nil when it is fully transparent.
    static func pixel(_ b: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8]? {
        let o = y * b.bytesPerRow + x * 4
        let a = UInt16(b.bytes[o + 3])
        guard a > 0 else { return nil }
        if a == 255 { return [b.bytes[o], b.bytes[o + 1], b.bytes[o + 2]] }
        return (0..<3).map { UInt8((UInt16(b.bytes[o + $0]) * a + 127) / 255) }
    }

    private static func fg(_ c: [UInt8]) -> String { "\u{1B}[38;2;\(c[0]);\(c[1]);\(c[2])m" }
    private static func bg(_ c: [UInt8]) -> String { "\u{1B}[48;2;\(c[0]);\(c[1]);\(c[2])m" }

    /// A ramp character for the mean brightness of the two pixels (transparent counts as dark).
    static func rampCharacter(_ top: [UInt8]?, _ bottom: [UInt8]?) -> Character {
        func luma(_ c: [UInt8]?) -> Int {
            guard let c else { return 0 }
            return (299 * Int(c[0]) + 587 * Int(c[1]) + 114 * Int(c[2])) / 1000
        }
        let l = (luma(top) + luma(bottom)) / 2
        return ramp[min(ramp.count - 1, l * ramp.count / 256)]
    }
}
