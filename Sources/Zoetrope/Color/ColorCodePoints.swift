/// Coding-independent code points (ITU-T H.273), as PNG `cICP` and AVIF `nclx` store them.
public struct ColorCodePoints: Hashable, Sendable {
    /// Colour primaries (1 BT.709/sRGB, 9 BT.2020, 12 Display P3).
    public var primaries: UInt16
    /// Transfer characteristics (13 sRGB, 1 BT.709, 16 PQ, 18 HLG).
    public var transfer: UInt16
    /// Matrix coefficients (0 identity/RGB, 1 BT.709, 6 BT.601, 9 BT.2020).
    public var matrix: UInt16
    /// Full range (true) or limited ("video") range.
    public var fullRange: Bool

    /// Creates code points from the stored values.
    public init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// Whether the transfer is high dynamic range: PQ (16) or HLG (18).
    package var isHDR: Bool { transfer == 16 || transfer == 18 }
}
