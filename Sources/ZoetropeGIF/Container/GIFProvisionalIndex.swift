import Zoetrope

/// The whole-file index of a big GIF in two steps, so that frame 0 decodes before the rest
/// of the file is checked: opening walks the blocks (cheap: sub-block lengths) and scans
/// only the LZW data up to frame 0; the other images' scans (the costly part) run when
/// the frame count is first needed (`complete`).
///
/// The walk gives every frame's place, durations, the plays and the limits; the scans can
/// only end the animation early (a bad code drops its frame and what follows, as Chromium
/// does) and add colour warnings. `complete` gives exactly what `GIFIndex.parse` gives:
/// with no bad code, the walk's frames with the scans' findings; with one, the file walked
/// again one image at a time.
struct GIFProvisionalIndex: Sendable {
    /// The walk, stopped at the trailer, with every image's scan deferred.
    private var parser: GIFIndexParser
    /// The scans up to and including frame 0's, already run.
    private let firstResults: [GIFCodeScan.Result]
    /// The walk's index: every frame the file describes (at least the final count).
    let index: GIFIndex

    /// The thresholds of the scans `complete` runs.
    private let tuning: DecoderTuning

    /// Walks `bytes` (a whole file) and scans up to frame 0. Nil when the file must be
    /// indexed in one go: not ending with its trailer, a limit passed or a bad code up to
    /// frame 0 (where the order of the findings decides).
    init?(_ bytes: UnsafeRawBufferPointer, limits: Limits, tuning: DecoderTuning) {
        var parser = GIFIndexParser(limits: limits)
        parser.defersScans = true
        guard (try? parser.advance(bytes)) != nil, case .trailer = parser.step,
            let first = parser.deferredScans.firstIndex(where: { !$0.image.isEmpty })
        else { return nil }
        let results = GIFIndex.runScans(parser.deferredScans[...first], in: bytes, threads: 1)
        guard !results.contains(where: { $0.badCode != nil }), let index = try? parser.finish(receivedByteCount: bytes.count)
        else { return nil }
        self.parser = parser
        self.tuning = tuning
        firstResults = results
        self.index = index
    }

    /// The exact whole-file index: the remaining scans (on every core for a file past
    /// `DecoderTuning.gifParallelScanMinimumBytes`), then the walk's frames, or the file
    /// walked again after a bad code.
    func complete(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) -> GIFIndex {
        let rest = parser.deferredScans[firstResults.count...]
        let threads = tuning.gifScanThreads(byteCount: bytes.count)
        let results = firstResults + GIFIndex.runScans(rest, in: bytes, threads: threads)
        guard !results.contains(where: { $0.badCode != nil }) else {
            var sequential = GIFIndexParser(limits: parser.limits)
            try sequential.advance(bytes)
            return try sequential.finish(receivedByteCount: bytes.count)
        }
        var parser = parser
        parser.applyDeferredScans(results)
        return try parser.finish(receivedByteCount: bytes.count)
    }
}
