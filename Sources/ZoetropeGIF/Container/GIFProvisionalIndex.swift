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
    ///
    /// For `OpenStrategy.firstFrameBesideWalk`, `alongsideWalk` runs on this thread once
    /// frame 0's data has been walked, with its record and the canvas, while a new thread
    /// walks the rest and scans frame 0: the frame source draws frame 0 there. For
    /// `lazyInfo` it is not called.
    init?(
        _ bytes: UnsafeRawBufferPointer, limits: Limits, tuning: DecoderTuning, strategy: OpenStrategy,
        alongsideWalk: (_ record: GIFFrameRecord, _ canvas: PixelSize) -> Void
    ) {
        var parser = GIFIndexParser(limits: limits)
        parser.defersScans = true
        // Walk until frame 0's data is behind (the parser resumes where it stops), then go
        // on through the rest of the file while a second core scans (or draws) frame 0.
        var walked = 0
        while parser.frames.isEmpty, walked < bytes.count {
            walked = min(bytes.count, max(walked * 2, 256 << 10))
            guard (try? parser.advance(UnsafeRawBufferPointer(rebasing: bytes[..<walked]))) != nil else { return nil }
            if parser.isComplete { break }
        }
        guard let first = parser.deferredScans.firstIndex(where: { !$0.image.isEmpty }) else { return nil }
        let firstScans = parser.deferredScans[...first]
        let work = WalkAndScan(parser: parser, bytes: bytes)
        if strategy == .firstFrameBesideWalk, let record = parser.frames.first {
            // Drawing frame 0 is the longest of the three: it starts at once on this
            // thread, and the walk and the scan, with time to spare, go to a new one.
            let canvas = parser.canvasSize
            NativeThread.pair(
                name: "zoetrope.gif", here: { alongsideWalk(record, canvas) },
                other: {
                    work.walkOn(); work.scan(firstScans)
                })
        } else {
            work.walkOn()
            work.scan(firstScans)
        }
        parser = work.parser
        guard work.walkSucceeded, case .trailer = parser.step, !work.results.contains(where: { $0.badCode != nil }),
            let index = try? parser.finish(receivedByteCount: bytes.count)
        else { return nil }
        self.parser = parser
        self.tuning = tuning
        firstResults = work.results
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

/// The rest of the walk and frame 0's scan, run on a thread of their own.
///
/// @unchecked Sendable: `NativeThread.pair` returns only after the other thread has run
/// both; the walk writes only `parser` and `walkSucceeded`, the scan only `results`, both
/// only read the file (which nobody writes), and the caller reads the fields after the join.
private final class WalkAndScan: @unchecked Sendable {
    var parser: GIFIndexParser
    let bytes: UnsafeRawBufferPointer
    var walkSucceeded = false
    var results: [GIFCodeScan.Result] = []

    init(parser: GIFIndexParser, bytes: UnsafeRawBufferPointer) {
        self.parser = parser
        self.bytes = bytes
    }

    func walkOn() { walkSucceeded = (try? parser.advance(bytes)) != nil }

    func scan(_ scans: ArraySlice<GIFDeferredScan>) { results = GIFIndex.runScans(scans, in: bytes, threads: 1) }
}
