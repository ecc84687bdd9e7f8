import Zoetrope

extension GIFIndex {
    /// Total plays for a stored loop value: no loop block → 1, N → N + 1, 0 → forever.
    static func loopCount(stored: Int?) -> LoopCount {
        guard let n = stored else { return .once }
        return n == 0 ? .infinite : .plays(n + 1)
    }

    /// Checks what a decoding session over `frames` holds against the allocation limit:
    /// the canvas, at most a canvas saved for "restore to previous", the indices drawing a
    /// frame holds at once (`lineBytes`: the most `GIFDecodeState.lineByteCount` gives),
    /// the frame records and their key-frame table.
    static func checkBudget(canvas: PixelSize, frameCount: Int, lineBytes: Int, limits: Limits) throws(AnimatedImageError) {
        var budget = AllocationBudget(limits: limits, format: .gif)
        budget.reserve(2, bytesEach: canvas.rgbaByteCount)
        budget.reserve(lineBytes)
        budget.reserve(frameCount, bytesEach: MemoryLayout<GIFFrameRecord>.stride)
        budget.reserve(KeyFrameTable.byteCount(frames: frameCount))
        try budget.check()
    }
}
