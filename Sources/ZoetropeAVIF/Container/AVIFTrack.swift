import Zoetrope

/// What Zoetrope reads of one `moov/trak` box: enough to pick the colour and alpha tracks
/// and the loop count, which libavif 0.11 gets wrong or does not expose.
struct AVIFTrack: Hashable, Sendable {
    /// The whole `trak` box (to hide it from libavif when it must be ignored).
    var box: ISOBox
    /// `tkhd` track_ID (0 when missing).
    var id: UInt32 = 0
    /// `tkhd` duration in the movie timescale; nil when indefinite (all bits set) or missing.
    var duration: UInt64?
    /// `mdia/hdlr` handler type (`pict`, `auxv`, `soun`, …), 0 when missing.
    var handler: UInt32 = 0
    /// The first sample entry's coding name in `stsd` (`av01`), 0 when missing.
    var sampleEntry: UInt32 = 0
    /// The first visual sample entry's width and height (0 when missing).
    var width = 0, height = 0
    /// `stsz` sample_count: the number of frames (0 when missing).
    var sampleCount = 0
    /// The sample entry's `auxi` auxiliary type URN, if it has one.
    var auxiliaryType: String?
    /// The track this one is an auxiliary image of (`tref/auxl`), if any.
    var auxiliaryFor: UInt32?
    /// The `edts/elst` box, if the track has one.
    var editList: AVIFEditList?
    /// Set when the `elst` box could not be parsed; only an error for the colour track.
    var editListError: AnimatedImageError?

    /// The URN that marks an auxiliary image as alpha.
    static let alphaURN = "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"

    /// An AV1 track with an ID and samples that is not auxiliary: a candidate colour track
    /// (the tests libavif applies when it picks one).
    var isColour: Bool { sampleEntry == ISOBox.code("av01") && auxiliaryFor == nil && id != 0 && sampleCount > 0 }

    /// An AV1 auxiliary track of `colourID` that carries alpha (no `auxi`, as older writers
    /// produce, or `auxi` naming the alpha URN). A depth or other auxiliary track is not.
    func isAlpha(for colourID: UInt32) -> Bool {
        sampleEntry == ISOBox.code("av01") && auxiliaryFor == colourID
            && (auxiliaryType == nil || auxiliaryType == AVIFTrack.alphaURN)
    }
}
