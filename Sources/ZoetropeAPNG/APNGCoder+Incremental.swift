import Zoetrope

extension APNGCoder: IncrementalDecoding {
    /// A session that walks the PNG's chunks as bytes are appended (continuing where it
    /// stopped) and decodes every frame whose data has arrived, exactly as
    /// `makeFrameSource(data:options:)` decodes it from the whole file.
    ///
    /// The canvas is known once IHDR is in, the plays once acTL is; frame 0 once its IDAT
    /// run ends (or, when IDAT is not part of the animation, at the next fcTL), any other
    /// frame at the next fcTL or IEND. Animation chunks that turn out broken make the file
    /// its still image, as in the whole-file source (`IncrementalSnapshot.revision` says
    /// when frames already reported were withdrawn); a passed limit or a broken still image
    /// fails the session. `finish()` gives the whole-file info for the bytes received.
    public func makeIncrementalSource(options: DecodingOptions) -> any IncrementalFrameSource {
        APNGIncrementalSource(options: options)
    }
}
