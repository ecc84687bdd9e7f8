import CLCMS2

extension MatrixShaperTransform {
    /// Whether this agrees with lcms2 on every probed colour (`ColorProbe`): within 1 of
    /// `lcms` at 8 bits, and within 64 of 65,535 of lcms2's floating-point evaluation of
    /// `profile` at 16 bits.
    func agrees(with lcms: LCMSTransform, profile: cmsHPROFILE) -> Bool {
        let eight = ColorProbe.largestDifference(
            ColorProbe.converted(ColorProbe.rgba8, by: self), ColorProbe.converted(ColorProbe.rgba8, by: lcms))
        guard eight <= 1, let reference = LCMSFloatReference.converted16(ColorProbe.rgba16, from: profile) else { return false }
        return ColorProbe.largestDifference(ColorProbe.converted16(ColorProbe.rgba16, by: self), reference) <= 64
    }
}
