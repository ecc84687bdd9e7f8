import Zoetrope

extension ColorManagement {
    /// The transform `prepare` returned without its splitting into bands over threads, for a
    /// caller that converts bands of rows itself (a JPEG decoded band by band).
    package static func rowTransform(of transform: any ColorTransform) -> any ColorTransform {
        (transform as? BandedColorTransform)?.base ?? transform
    }
}
