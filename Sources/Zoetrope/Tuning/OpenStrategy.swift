/// How a frame source opens a whole file. Each codec that has a faster open than the plain
/// one decides from its own `DecoderTuning.FastPath` thresholds, before it reads anything
/// (Docs/Architecture.md, "Opening a file").
package enum OpenStrategy: Hashable, Sendable {
    /// Walk and check the whole file, then decode frames on demand: the plain open, which
    /// every source can take.
    case wholeIndex
    /// Walk the cheap part of the whole file (frame places, durations, limits) and leave
    /// the costly checks to the first use of `info`; frame 0 decodes without them.
    case lazyInfo
    /// Once frame 0's data has been walked, the opening thread draws frame 0 while a new
    /// one walks the rest, and the source starts from that canvas.
    case firstFrameBesideWalk
}
