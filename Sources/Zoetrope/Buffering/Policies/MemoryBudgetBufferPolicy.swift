/// Keep all frames when they fit in a byte budget, else the largest window that fits
/// (the poster included), never fewer than two frames.
public struct MemoryBudgetBufferPolicy: FrameBufferPolicy, Hashable {
    /// The bytes of decoded frames one player may hold.
    package let budgetBytes: Int

    /// A policy holding at most `budgetBytes` of decoded frames (negative counts as 0).
    package init(budgetBytes: Int) { self.budgetBytes = max(0, budgetBytes) }

    public func windowSize(in context: FrameBufferContext) -> Int {
        let frame = max(1, context.frameByteCount)
        let fit = budgetBytes / frame
        // All frames: the poster is frame 0, so n buffers. Otherwise the poster is extra.
        if fit >= context.frameCount { return context.frameCount }
        return max(2, fit - 1)
    }

    public var name: String { "budget:\(budgetBytes)" }
}
