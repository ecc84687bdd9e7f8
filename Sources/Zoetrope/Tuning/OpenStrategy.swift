/// How a frame source opens a whole file (`DecoderTuning.openStrategy(for:byteCount:availableCores:)`).
///
/// The choice is made in one place for every codec, so the path from a file's bytes to its
/// first frame is named rather than found by reading each codec's open (Docs/Architecture.md,
/// "Opening a file").
package enum OpenStrategy: Hashable, Sendable {
    /// Walk and check the whole file, then decode frames on demand. Every format below its
    /// thresholds, and WebP, AVIF and JPEG always.
    case wholeIndex
    /// Walk the cheap part of the whole file (frame places, durations, limits) and leave
    /// the costly checks to the first use of `info` (the other images' LZW scans); frame 0
    /// decodes without them. GIF files past `DecoderTuning.gifTwoStepMinimumBytes`.
    case lazyInfo
    /// Once frame 0's data has been walked, the opening thread draws frame 0 while a new
    /// one walks the rest, and the source starts from that canvas. APNG files past
    /// `DecoderTuning.apngBesideWalkMinimumBytes`, with a second core.
    case firstFrameBesideWalk
}
