import CAVIF

/// libyuv's fixed-point YUV→RGB constants for one range and matrix: the ones libavif 0.11
/// hands libyuv for an RGBA8 frame (`avifImageYUVToRGBLibYUV`), as libyuv defines them
/// (`kYuvI601Constants` and its siblings): chroma coefficients in 1/64, the luma gain in
/// 1/65,536 of 1/64 of a 16-bit sample, the bias in 1/64 with half a step for rounding.
/// `AVIFDeepConversion` computes RGBA16 with them so that both depths agree.
struct AVIFLibYUVMatrix: Equatable {
    var ub: Int32
    var ug: Int32
    var vg: Int32
    var vr: Int32
    var yg: Int32
    var yb: Int32

    /// BT.601 limited range (libyuv caps `ub` at 128 where 2.018 × 64 would be 129).
    static let bt601Limited = AVIFLibYUVMatrix(ub: 128, ug: 25, vg: 52, vr: 102, yg: 18_997, yb: -1_160)
    /// BT.601 full range (JPEG).
    static let bt601Full = AVIFLibYUVMatrix(ub: 113, ug: 22, vg: 46, vr: 90, yg: 16_320, yb: 32)
    /// BT.709 limited range (`ub` capped at 128).
    static let bt709Limited = AVIFLibYUVMatrix(ub: 128, ug: 14, vg: 34, vr: 115, yg: 18_997, yb: -1_160)
    /// BT.709 full range.
    static let bt709Full = AVIFLibYUVMatrix(ub: 119, ug: 12, vg: 30, vr: 101, yg: 16_320, yb: 32)
    /// BT.2020 limited range (`ub` capped at 128).
    static let bt2020Limited = AVIFLibYUVMatrix(ub: 128, ug: 12, vg: 42, vr: 107, yg: 19_003, yb: -1_160)
    /// BT.2020 full range.
    static let bt2020Full = AVIFLibYUVMatrix(ub: 120, ug: 11, vg: 37, vr: 94, yg: 16_320, yb: 32)

    /// The constants libavif 0.11 picks for `image`'s range, matrix (and, for a matrix
    /// derived from the primaries, primaries); nil where it has none and converts itself.
    init?(_ image: avifImage) {
        let full = image.yuvRange == AVIF_RANGE_FULL
        let bt601 = full ? Self.bt601Full : Self.bt601Limited
        let bt709 = full ? Self.bt709Full : Self.bt709Limited
        let bt2020 = full ? Self.bt2020Full : Self.bt2020Limited
        switch Int(image.matrixCoefficients) {
        case AVIF_MATRIX_COEFFICIENTS_BT709: self = bt709
        case AVIF_MATRIX_COEFFICIENTS_BT470BG, AVIF_MATRIX_COEFFICIENTS_BT601, AVIF_MATRIX_COEFFICIENTS_UNSPECIFIED: self = bt601
        case AVIF_MATRIX_COEFFICIENTS_BT2020_NCL: self = bt2020
        case AVIF_MATRIX_COEFFICIENTS_CHROMA_DERIVED_NCL:
            switch Int(image.colorPrimaries) {
            case AVIF_COLOR_PRIMARIES_BT709, AVIF_COLOR_PRIMARIES_UNSPECIFIED: self = bt709
            case AVIF_COLOR_PRIMARIES_BT470BG, AVIF_COLOR_PRIMARIES_BT601: self = bt601
            case AVIF_COLOR_PRIMARIES_BT2020: self = bt2020
            default: return nil
            }
        default: return nil
        }
    }

    init(ub: Int32, ug: Int32, vg: Int32, vr: Int32, yg: Int32, yb: Int32) {
        (self.ub, self.ug, self.vg, self.vr, self.yg, self.yb) = (ub, ug, vg, vr, yg, yb)
    }
}
