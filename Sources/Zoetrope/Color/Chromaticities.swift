/// CIE xy chromaticities of a white point and three primaries, each times 100,000 as PNG's
/// `cHRM` chunk stores them.
public struct Chromaticities: Hashable, Sendable {
    /// White point x and y.
    public var whiteX: UInt32, whiteY: UInt32
    /// Red primary x and y.
    public var redX: UInt32, redY: UInt32
    /// Green primary x and y.
    public var greenX: UInt32, greenY: UInt32
    /// Blue primary x and y.
    public var blueX: UInt32, blueY: UInt32

    /// Creates chromaticities from the stored values.
    public init(
        whiteX: UInt32, whiteY: UInt32, redX: UInt32, redY: UInt32,
        greenX: UInt32, greenY: UInt32, blueX: UInt32, blueY: UInt32
    ) {
        self.whiteX = whiteX; self.whiteY = whiteY
        self.redX = redX; self.redY = redY
        self.greenX = greenX; self.greenY = greenY
        self.blueX = blueX; self.blueY = blueY
    }
}
