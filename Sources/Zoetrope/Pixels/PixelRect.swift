/// A rectangle in pixels, origin top-left.
package struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge, in pixels from the left of the canvas.
    package var x: Int
    /// The top edge, in pixels from the top of the canvas.
    package var y: Int
    /// The width in pixels (zero or less: empty).
    package var width: Int
    /// The height in pixels (zero or less: empty).
    package var height: Int

    /// A rectangle with its top-left corner at (`x`, `y`).
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle covers no pixel.
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle inside `other` (empty when they do not meet).
    package func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Whether every pixel of `other` lies in this rectangle (an empty `other` does).
    package func contains(_ other: PixelRect) -> Bool {
        other.isEmpty
            || (!isEmpty && other.x >= x && other.y >= y && other.x + other.width <= x + width
                && other.y + other.height <= y + height)
    }

    /// The smallest rectangle holding both; an empty one adds nothing.
    package func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// "W×H+X+Y", as X11 geometry writes it.
    package var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
