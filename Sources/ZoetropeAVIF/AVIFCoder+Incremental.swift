import Zoetrope

extension AVIFCoder: IncrementalDecoding {
    /// A session that follows the file's top-level boxes as bytes are appended (each box
    /// header read once) and decodes every frame whose bytes have arrived, exactly as
    /// `makeFrameSource(data:options:)` decodes it from the whole file.
    ///
    /// The format is known once `ftyp` names `avif` or `avis`. The canvas, the frame count,
    /// the durations, the alpha and the plays (the colour track's edit list) are known, and
    /// the limits checked, once the metadata libavif reads is complete: `meta` for a still,
    /// `moov` for a sequence (both when the brands name both). From then on frame *k* is
    /// added as soon as the bytes of its sample and of those it depends on (from the sample
    /// table) are all in; frames are whole pictures, never partly shown.
    ///
    /// Which layouts show frames before they are complete: a file whose `meta`/`moov` comes
    /// before its `mdat` (what `AVIFEncoder` and most writers produce) shows each frame as its
    /// sample arrives. A file whose `mdat` comes first shows nothing until the metadata after
    /// it has arrived, and then every frame whose samples are in (all of them, usually).
    /// Metadata that Zoetrope or libavif refuses shows no frame; `finish()` then throws the
    /// whole-file error. `finish()` gives the whole-file info for the bytes received.
    public func makeIncrementalSource(options: DecodingOptions) -> any IncrementalFrameSource {
        AVIFIncrementalSource(options: options)
    }
}
