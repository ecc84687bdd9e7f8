/// Decides, from measured times, whether decoding the next AVIF frame on another thread
/// still pays for itself.
///
/// The pipeline (`AVIFPrefetch`) wins the worker's decode time for every frame, minus what
/// the caller still waits for it, minus the copy of the planes that makes the overlap
/// possible. When no second core is free (other processes keep it busy, or the process is
/// confined to one), the worker only runs once the caller blocks on it: the wait is the
/// whole decode, and the copy and the hand-offs are lost. The gauge sums that balance over
/// a window of frames; a window that saved nothing switches the sequence to inline
/// conversion (the one-thread path), and after `probeInterval` inline frames the pipeline
/// is tried again for one window, since the load may have changed.
struct AVIFPipelineGauge {
    /// Frames per measured window.
    static let window = 8
    /// Inline frames before the pipeline is tried again.
    static let probeInterval = 64

    /// Whether the next frame should be prefetched.
    private(set) var pipelining = true
    private var frames = 0
    private var savedNanos: Int64 = 0
    private var inlineFrames = 0
    /// Windows that ended in a switch to inline conversion (for tests and diagnostics).
    private(set) var fallbacks = 0

    /// Records one pipelined frame: how long the worker's decode took (wall time on its
    /// thread), how long the caller then blocked waiting for it, and how long the plane copy took.
    mutating func recordPipelined(decodeNanos: Int64, blockedNanos: Int64, copyNanos: Int64) {
        // Each time is clamped to 0...2^40 ns (18 minutes), so eight of them cannot overflow.
        func clamped(_ t: Int64) -> Int64 { min(max(t, 0), 1 << 40) }
        savedNanos += clamped(decodeNanos) - clamped(blockedNanos) - clamped(copyNanos)
        frames += 1
        guard frames >= Self.window else { return }
        if savedNanos <= 0 {
            pipelining = false
            fallbacks += 1
        }
        frames = 0
        savedNanos = 0
    }

    /// Records one frame converted inline; after `probeInterval` of them the pipeline is tried again.
    mutating func recordInline() {
        inlineFrames += 1
        if inlineFrames >= Self.probeInterval {
            inlineFrames = 0
            pipelining = true
        }
    }
}
