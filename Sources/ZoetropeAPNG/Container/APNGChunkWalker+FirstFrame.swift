import Zoetrope

extension APNGChunkWalker {
    /// While the `IDAT` run is arriving and it is frame 0 (the still image, or the
    /// animation's first frame when an `fcTL` precedes it): that frame with the chunks
    /// complete so far. Nil otherwise.
    var partialFirstFrame: APNGFrameRecord? {
        guard idatState == .inside, frames.isEmpty, let header, !idatChunks.isEmpty else { return nil }
        if numFrames != nil, !animationIgnored, animationError == nil {
            // An animation: frame 0 is the IDAT image only when an fcTL came before it.
            guard var p = pending, p.usesIDAT else { return nil }
            p.chunks = idatChunks
            return p
        }
        return APNGFrameRecord(
            rect: PixelRect(x: 0, y: 0, width: header.width, height: header.height), duration: .zero,
            dispose: .none, blend: .source, usesIDAT: true, chunks: idatChunks)
    }

    /// Whether every chunk of frame 0's data has been walked: the IDAT run has ended and
    /// frame 0 is the IDAT image, or frame 0's fdAT run has ended.
    var firstFrameWalked: Bool {
        if !frames.isEmpty { return true }
        guard idatState == .after else { return false }
        // The IDAT image is frame 0 unless a valid animation hides it (no fcTL before it).
        let animated = numFrames != nil && !animationIgnored && animationError == nil
        return !animated || pending?.usesIDAT == true
    }

    /// Indexes `bytes` (a whole file) exactly as `index(_:limits:keepsCutFirstFrame:)` does,
    /// drawing frame 0 beside the walk.
    ///
    /// Opening a big file reads the chunk headers of all of it, and on a mapped file each
    /// new page costs a fault, a sizeable share of the first frame's time (Docs/Benchmarks.md,
    /// "First frame from the whole file"). Frame 0 does not need the rest. So
    /// (`OpenStrategy.firstFrameBesideWalk`), once frame 0's data has been walked, `alongsideWalk` runs on this thread with
    /// the index the file would have if it ended there, while a new thread walks the rest.
    /// That index's frame 0 is the final one's only if nothing later changes it (a broken
    /// animation falls back to the still image): compare before using what it drew.
    static func index(
        _ bytes: UnsafeRawBufferPointer, limits: Limits, keepsCutFirstFrame: Bool,
        alongsideWalk: (_ provisional: APNGIndex) -> Void
    ) throws(AnimatedImageError) -> APNGIndex {
        var walker = APNGChunkWalker(limits: limits)
        walker.keepsCutFirstFrame = keepsCutFirstFrame
        walker.pausesAfterFirstFrame = true
        try walker.advance(bytes)
        walker.pausesAfterFirstFrame = false
        if walker.firstFrameWalked, !walker.isComplete {
            var ending = walker
            let provisional = try? ending.finish(UnsafeRawBufferPointer(rebasing: bytes[..<walker.offset]))
            let rest = RestOfWalk(walker: walker, bytes: bytes)
            NativeThread.pair(name: "zoetrope.apng", here: { provisional.map(alongsideWalk) }, other: { rest.run() })
            walker = rest.walker
            try rest.result.get()
        }
        try walker.advance(bytes)
        return try walker.finish(bytes)
    }
}

/// The rest of a walk, run on a thread of its own.
///
/// @unchecked Sendable: `NativeThread.pair` returns only after the other thread has run
/// `run`, which alone writes `walker` and `result`; the file's bytes are only read (nobody
/// writes them), and the caller reads the fields after the join.
private final class RestOfWalk: @unchecked Sendable {
    var walker: APNGChunkWalker
    let bytes: UnsafeRawBufferPointer
    var result: Result<Void, AnimatedImageError> = .success(())

    init(walker: APNGChunkWalker, bytes: UnsafeRawBufferPointer) {
        self.walker = walker
        self.bytes = bytes
    }

    func run() {
        do throws(AnimatedImageError) { try walker.advance(bytes) } catch { result = .failure(error) }
    }
}
