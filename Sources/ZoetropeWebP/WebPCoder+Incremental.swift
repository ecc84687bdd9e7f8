import Zoetrope

extension WebPCoder: IncrementalDecoding {
    /// A session that walks the WebP's RIFF chunks as bytes are appended (continuing where
    /// it stopped) and decodes every frame whose data has arrived, exactly as
    /// `makeFrameSource(data:options:)` decodes it from the whole file.
    ///
    /// The format is known once `RIFF….WEBP` is in, the canvas once `VP8X` is (or, for a
    /// simple file, the still image's bitstream header), the plays once `ANIM` is, a frame
    /// once its `ANMF` chunk (or the still image's chunk) is complete. A chunk libwebp's
    /// demuxer rejects fails the session, or ends the animation keeping the frames before
    /// it, as the whole-file source does: as soon as it arrives when the whole-file diagnosis
    /// follows from the bytes so far, else when the RIFF end arrives or the data ends. A
    /// passed limit fails the session at once: the canvas is checked with the first frame,
    /// the frame count, pixels per play and allocation as frames arrive (the error names the
    /// frames so far), when the whole-file source also reports a limit for the bytes so far.
    /// A `VP8X` canvas past the limits is refused by both whatever follows; where the
    /// whole-file source reports another error for those bytes (a chunk libwebp's demuxer
    /// refuses), no more frames are reported and the whole-file index decides at the end. Files the walker cannot follow chunk by chunk (chunks
    /// out of the usual order, a file without the RIFF header) report their frames when the
    /// RIFF end arrives or at `finish()`, which gives the whole-file info for the bytes
    /// received (the index is made once then, with the whole-file path).
    public func makeIncrementalSource(options: DecodingOptions) -> any IncrementalFrameSource {
        WebPIncrementalSource(options: options)
    }
}
