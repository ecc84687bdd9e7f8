/// The row each successive line of a GIF image lands on: top to bottom, or the four
/// interlace passes (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
struct GIFRowOrder {
    private let height: Int
    private let interlaced: Bool
    private var pass = 0
    private var row = 0
    private static let starts = [0, 4, 2, 1]
    private static let steps = [8, 8, 4, 2]

    init(height: Int, interlaced: Bool) {
        self.height = height
        self.interlaced = interlaced
    }

    /// The next row. Call at most `height` times.
    mutating func next() -> Int {
        guard interlaced else {
            defer { row += 1 }
            return row
        }
        while row >= height, pass < 3 {
            pass += 1
            row = GIFRowOrder.starts[pass]
        }
        defer { row += GIFRowOrder.steps[pass] }
        return row
    }
}
