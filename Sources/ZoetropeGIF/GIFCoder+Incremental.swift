import Zoetrope

extension GIFCoder: IncrementalDecoding {
    /// A session that indexes the GIF's blocks as bytes are appended (continuing where it
    /// stopped) and decodes every frame whose image data has arrived, exactly as
    /// `makeFrameSource(data:options:)` decodes it from the whole file.
    ///
    /// The canvas is known once the first image descriptor is in, the plays once a loop
    /// block is (the last one counts), a frame once its data's terminator is. A broken block
    /// (an unknown introducer, a corrupt LZW code) ends the animation before it as soon as
    /// it arrives, keeping the frames before it; a passed limit or an unusable header fails
    /// the session. `finish()` gives the whole-file info for the bytes received.
    public func makeIncrementalSource(options: DecodingOptions) -> any IncrementalFrameSource {
        GIFIncrementalSource(options: options)
    }
}
