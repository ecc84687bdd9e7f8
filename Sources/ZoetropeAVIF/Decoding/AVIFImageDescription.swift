import CAVIF
import Zoetrope

/// What libavif's parsed image says about colour and metadata: the `colr` boxes (an ICC
/// profile, `nclx` code points) and the Exif and XMP items, as `AnimationInfo` reports them.
enum AVIFImageDescription {
    /// The profile, and the code points when they declare something: primaries or transfer
    /// other than 2 (unspecified, libavif's default when the file has no `nclx`) and other
    /// than sRGB's (primaries 1, transfer 13), which is what an undeclared file means anyway.
    static func color(of image: avifImage) -> ColorInfo {
        var color = ColorInfo()
        if let profile = bytes(image.icc) { color.iccProfile = ICCProfile(data: profile) }
        let primaries = UInt16(image.colorPrimaries), transfer = UInt16(image.transferCharacteristics)
        let meansSRGB = (primaries == 2 || primaries == 1) && (transfer == 2 || transfer == 13)
        if !meansSRGB {
            color.codePoints = ColorCodePoints(
                primaries: primaries, transfer: transfer,
                matrix: UInt16(image.matrixCoefficients),
                fullRange: image.yuvRange == AVIF_RANGE_FULL)
        }
        return color
    }

    /// The Exif and XMP payloads libavif found for the image.
    static func metadata(of image: avifImage) -> EmbeddedMetadata {
        EmbeddedMetadata(exif: bytes(image.exif), xmp: bytes(image.xmp))
    }

    /// A copy of libavif's bytes, nil when there are none.
    private static func bytes(_ data: avifRWData) -> [UInt8]? {
        guard let p = data.data, data.size > 0 else { return nil }
        return [UInt8](UnsafeBufferPointer(start: p, count: data.size))
    }
}
