/// The bulk run a keep-all player's decode jobs share, and what it has delivered.
struct BulkRunSlot: Sendable {
    var run: BulkFrameDecoder?
    /// Frames delivered by a run on more than one thread, for tests.
    var framesFromParallelRuns = 0

    /// Stops the run, if any.
    mutating func end() {
        run?.cancel()
        run = nil
    }
}

extension AnimationPlayer {
    /// Decodes frame `index` for a player that keeps every frame: the engine asks for the
    /// frames in order, one job at a time, so the jobs take them from one `BulkFrameDecoder`
    /// whose workers decode the next frames' data meanwhile. A request out of that order (a
    /// seek, a new play after a reset) starts a new run there.
    static func decodeInBulk(
        _ index: Int, of source: any FrameSource, into buffer: inout PixelBuffer,
        run slot: Locked<BulkRunSlot>
    ) throws {
        let run = slot.withLock { s -> BulkFrameDecoder in
            if let current = s.run, current.source === source, current.nextIndex == index { return current }
            s.end()
            let fresh = BulkFrameDecoder(
                source: source, frames: index..<source.info.frameCount, threads: nil, tuning: source.options.tuning.bulk.sharingWorkers)
            s.run = fresh
            return fresh
        }
        guard try run.nextFrame(into: &buffer) == index else {
            try source.decodeFrame(at: index, into: &buffer)
            return
        }
        slot.withLock { s in
            if run.threadCount > 1 { s.framesFromParallelRuns += 1 }
            // Every frame is kept now: the workers are done.
            if run.nextIndex == nil, s.run === run { s.run = nil }
        }
    }

    /// Frames this player's decodes took from a bulk run on more than one thread (keep-all).
    package var framesDecodedInParallel: Int { bulkRun.withLock { $0.framesFromParallelRuns } }
}
