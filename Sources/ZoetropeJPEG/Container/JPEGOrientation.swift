import Zoetrope

/// The Exif orientation of a JPEG (TIFF tag 0x0112): how the stored picture is turned or
/// mirrored to be displayed. Raw values are the tag's, 1 to 8.
public enum JPEGOrientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: stored as displayed.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned half a turn.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// 6: displayed turned a quarter turn clockwise.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// 8: displayed turned a quarter turn anticlockwise.
    case left = 8

    /// Whether the displayed picture's width is the stored height (orientations 5 to 8).
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The displayed size of a picture stored at `stored`.
    public func displayedSize(of stored: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: stored.height, height: stored.width) : stored
    }

    /// The stored pixel shown at displayed pixel (`x`, `y`), for a picture stored `width` ×
    /// `height` pixels.
    @inline(__always)
    func storedPixel(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }
}
