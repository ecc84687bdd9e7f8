extension PlaybackEngine {
    /// Keeps the last 64 decode times for the median, and the worst ever.
    mutating func recordDecodeTime(_ d: Duration) {
        if decodeSamples.count < 64 {
            decodeSamples.append(d)
        } else {
            decodeSamples[decodeSampleNext] = d
            decodeSampleNext = (decodeSampleNext + 1) % 64
        }
        diagnostics.worstDecodeTime = max(diagnostics.worstDecodeTime, d)
        let sorted = decodeSamples.sorted()
        diagnostics.medianDecodeTime = sorted[sorted.count / 2]
    }

    mutating func noteMemory() {
        diagnostics.framesHeld = framesHeld
        diagnostics.bytesHeld = bytesHeld
        diagnostics.peakBytesHeld = max(diagnostics.peakBytesHeld, diagnostics.bytesHeld)
    }

    mutating func report(_ t: Int64, stalled: Bool, skipped: Int) {
        noteMemory()
        lastReport = PlaybackTickReport(
            targetNanoseconds: t, frameShown: current, stalled: stalled, skipped: skipped,
            framesHeld: diagnostics.framesHeld, bytesHeld: diagnostics.bytesHeld)
    }
}
