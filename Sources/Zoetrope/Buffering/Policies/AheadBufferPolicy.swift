/// Keep the frame shown and the next `framesAhead` frames; `framesAhead: 1` is the default
/// one-ahead policy (the poster plus two frames).
public struct AheadBufferPolicy: FrameBufferPolicy, Hashable {
    /// Frames decoded ahead of the one shown (at least 1).
    package let framesAhead: Int

    /// Keeps the shown frame and `framesAhead` more (values below 1 count as 1).
    package init(framesAhead: Int) { self.framesAhead = max(1, framesAhead) }

    public func windowSize(in context: FrameBufferContext) -> Int { framesAhead + 1 }

    public var name: String { framesAhead == 1 ? "one-ahead" : "ahead:\(framesAhead)" }
}
