#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a run of frames in order using several threads: the bulk path for reading many
/// frames one after another (exporting, converting, benchmarking, keeping every frame).
///
/// When the source adopts `ParallelFrameDecoding` (three built-in codecs do) and more than
/// one thread is allowed, worker threads decode the frames' compressed data ahead of the
/// caller while the caller's thread composites them in order, so the frames are exactly
/// those `FrameSource.decodeFrame(at:into:)` gives. Any other source, or one thread, decodes
/// one frame after another on the caller's thread: today's path.
///
/// ```swift
/// let decoder = BulkFrameDecoder(source: try image.makeFrameSource())
/// var pixels = PixelBuffer()
/// while let index = try decoder.nextFrame(into: &pixels) {
///     print(index, pixels.size)
/// }
/// ```
///
/// Memory: besides the source's own, at most `framesInFlight` payloads, each at most a
/// frame's rectangle (RGBA, or one byte a pixel for palette indices), plus one recycled:
/// with two threads, 5 × 8 MiB for 1920×1080 RGBA payloads, 5 × 2 MiB for indices. The
/// canvas and the payloads are checked against `Limits.maxAllocationBytes` first.
/// Calls are serialized, so a decoder may move between threads (an async iterator's);
/// frames still come one after another. `cancel()`, or releasing it, stops the workers and
/// frees what they decoded.
package final class BulkFrameDecoder: Sendable {
    /// The source frames come from.
    package let source: any FrameSource
    /// The frames this run delivers, in order.
    package let frames: Range<Int>
    /// Threads decoding, the caller's included: 1 when the run decodes one frame after
    /// another. (A keep-all player's runs share one worker per core across the process, so
    /// they may get fewer than asked.)
    package let threadCount: Int
    /// Payloads decoded ahead at most (0 when the run decodes one frame after another).
    package let framesInFlight: Int
    private let run: (any BulkRun)?
    /// The next frame (`frames.upperBound` once the run has ended); a call to `nextFrame`
    /// holds it for its whole length, which serializes the calls.
    private let position: Locked<Int>

    /// A run over `frames` of `source` (default: every frame) on `threads` threads (default:
    /// `source.options.threadCount`, else `ProcessorBudget.availableCores`). Threads are
    /// only started for sources that adopt `ParallelFrameDecoding`, for runs of more than one
    /// frame on a canvas of at least 16,384 pixels (smaller frames decode faster than they
    /// can be handed between threads), and while the payloads in flight fit
    /// `source.options.limits` and, together, one canvas plus 64 MiB (so a run holds at
    /// most three canvases plus 64 MiB with the session's canvas and `buffer`); otherwise
    /// the run takes one thread. A run whose threads get
    /// little more than one core between them (a busy machine) stops its workers and goes on
    /// one frame after another (`fellBackToOneThread`).
    package convenience init(source: any FrameSource, frames: Range<Int>? = nil, threads: Int? = nil) {
        self.init(source: source, frames: frames, threads: threads, tuning: source.options.tuning.bulk)
    }

    /// A run with its own thresholds (tests force or forbid either path with them).
    package init(source: any FrameSource, frames: Range<Int>?, threads: Int?, tuning: BulkTuning) {
        self.source = source
        let all = 0..<source.info.frameCount
        let range = frames.map { $0.clamped(to: all) } ?? all
        self.frames = range
        position = Locked(range.lowerBound)
        // No more threads than frames: each worker decodes whole frames.
        let wanted = min(range.count, max(1, threads ?? source.options.threadCount ?? ProcessorBudget.availableCores))
        let canvasPixels = source.info.canvasSize.pixelCount ?? 0
        if wanted > 1, range.count > 1, canvasPixels >= tuning.minimumCanvasPixels,
            let parallel = source as? any ParallelFrameDecoding,
            let started = BulkFrameDecoder.start(parallel, frames: range, threads: wanted, tuning: tuning)
        {
            run = started.run
            threadCount = started.threads
            framesInFlight = started.window
        } else {
            run = nil
            threadCount = 1
            framesInFlight = 0
        }
    }

    deinit { run?.stop() }

    /// Decodes the next frame of the run into `buffer` and returns its index; nil after the
    /// last frame or after `cancel()`. A frame that fails throws its `AnimatedImageError`
    /// after the frames before it, and the run ends. The caller checks
    /// `source.info.truncation` after the last frame, as with `decodeFrame`.
    package func nextFrame(into buffer: inout PixelBuffer) throws -> Int? {
        try position.withLock { next -> Int? in
            guard next < frames.upperBound else { return nil }
            let index = next
            do {
                if let run {
                    guard try run.next(into: &buffer) == index else {
                        next = frames.upperBound
                        return nil
                    }
                } else {
                    try source.decodeFrame(at: index, into: &buffer)
                }
            } catch {
                next = frames.upperBound
                throw error
            }
            next += 1
            return index
        }
    }

    /// The frame the next call to `nextFrame` decodes; nil once the run has ended.
    package var nextIndex: Int? {
        position.withLock { $0 < frames.upperBound ? $0 : nil }
    }

    /// Stops the run: no more frames are decoded, and once this returns every worker thread
    /// has ended and what they decoded is freed.
    package func cancel() {
        run?.stop()
        position.withLock { $0 = frames.upperBound }
    }

    /// Whether the run stopped its workers because its threads were getting little more
    /// than one core between them (a busy machine), and went on one frame after another,
    /// which is then faster.
    package var fellBackToOneThread: Bool { run?.wentSerial ?? false }

    /// Bytes the run holds besides the source: payloads decoded ahead and recycled storage.
    package var retainedByteCount: Int { run?.heldByteCount ?? 0 }

    private static func start<S: ParallelFrameDecoding>(
        _ source: S, frames: Range<Int>, threads: Int,
        tuning: BulkTuning
    ) -> (run: any BulkRun, window: Int, threads: Int)? {
        // One payload per thread being decoded, one ready ahead per thread, and one being
        // delivered, on top of the session's canvas; fewer when that would not fit the
        // limits or the tuning's bytes in flight, and none (one thread) when not even two fit.
        var window = 2 * threads
        let canvasBytes = source.info.canvasSize.rgbaByteCount
        while window >= 2 {
            var budget = AllocationBudget(limits: source.options.limits, format: source.info.format)
            budget.reserve(canvasBytes)
            budget.reserve(window + 1, bytesEach: source.maxPayloadByteCount)
            if (try? budget.check()) != nil,
                tuning.payloadsFit(window + 1, of: source.maxPayloadByteCount, canvasBytes: canvasBytes ?? Int.max)
            {
                break
            }
            window -= 1
        }
        guard window >= 2 else { return nil }
        // A player's run takes its workers from the process-wide allowance.
        let workers = tuning.sharesWorkers ? BulkWorkerAllowance.reserve(threads - 1) : threads - 1
        guard workers > 0 else { return nil }
        let pipeline = PayloadPipeline(
            source: source, frames: frames, window: window,
            minimumParallelism: tuning.minimumParallelism, sharesWorkers: tuning.sharesWorkers)
        pipeline.start(workers: workers)
        return (pipeline, window, workers + 1)
    }
}

/// What `BulkFrameDecoder` drives: a `PayloadPipeline` over a concrete source type.
protocol BulkRun: AnyObject, Sendable {
    func next(into buffer: inout PixelBuffer) throws -> Int?
    func stop()
    var wentSerial: Bool { get }
    var heldByteCount: Int { get }
}

extension PayloadPipeline: BulkRun {}
