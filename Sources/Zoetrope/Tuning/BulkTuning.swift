/// When a bulk run starts worker threads and when it stops them: the bulk part of
/// `DecoderTuning` (`FastPath.bulkWorkers`), kept apart so tests can force or forbid either path.
package struct BulkTuning: Hashable, Sendable {
    /// The smallest canvas (in pixels) a run starts workers for. Smaller frames decode in
    /// a few microseconds, where handing them between threads costs more than it saves
    /// (Docs/Benchmarks.md, "Fast paths against the plain path": 64×64 frames lose).
    package var minimumCanvasPixels: Int
    /// CPU seconds per wall-clock second the run's threads must get for the workers to go
    /// on, checked every few frames: the payload path costs a little more CPU than the
    /// one-frame path (hand-offs, one more copy of each frame), so it only wins with more
    /// than about 1.2 cores.
    package var minimumParallelism: Double
    /// Whether the run's workers come from `BulkWorkerAllowance` (one per core across every
    /// run that shares it). Players share it, so a grid of keep-all players shares the cores
    /// instead of starting a thread each; a caller that asks a run for threads gets them.
    package var sharesWorkers: Bool
    /// Payload bytes a run may hold beyond one canvas (decoded ahead, being delivered, and
    /// recycled storage together): with the session's canvas and the caller's buffer, a run
    /// then holds at most three canvases plus this, however large its frames. A run whose
    /// payloads do not fit two-deep goes one frame after another.
    package var extraPayloadBytes: Int

    /// The thresholds runs use (`DecoderTuning.standard`).
    package static var standard: BulkTuning { DecoderTuning.standard.bulk }
    /// These thresholds, with workers from the allowance: what players' runs use.
    package var sharingWorkers: BulkTuning {
        var tuning = self
        tuning.sharesWorkers = true
        return tuning
    }
    /// Workers for any canvas, never stopped: for tests of the parallel path on small fixtures.
    package static let alwaysParallel = BulkTuning(
        minimumCanvasPixels: 0, minimumParallelism: 0,
        extraPayloadBytes: Int.max)

    package init(
        minimumCanvasPixels: Int, minimumParallelism: Double, sharesWorkers: Bool = false,
        extraPayloadBytes: Int = 64 << 20
    ) {
        self.minimumCanvasPixels = minimumCanvasPixels
        self.minimumParallelism = minimumParallelism
        self.sharesWorkers = sharesWorkers
        self.extraPayloadBytes = extraPayloadBytes
    }

    /// Whether `count` payloads of `payloadBytes` each fit beside a canvas of `canvasBytes`.
    func payloadsFit(_ count: Int, of payloadBytes: Int, canvasBytes: Int) -> Bool {
        let (total, overflow) = count.multipliedReportingOverflow(by: payloadBytes)
        let (allowed, capped) = canvasBytes.addingReportingOverflow(extraPayloadBytes)
        return !overflow && (capped || total <= allowed)
    }
}
