/// Keep every frame once decoded: each frame decodes once, later loops reuse it. Memory is
/// the whole animation (`AnimationInfo.allFramesByteCount`).
public struct KeepAllBufferPolicy: FrameBufferPolicy, Hashable {
    /// The keep-everything policy.
    package init() {}

    public func windowSize(in context: FrameBufferContext) -> Int { context.frameCount }

    public var name: String { "all" }

    /// True: every frame is kept, and decoded in bulk.
    public var keepsEveryFrame: Bool { true }
}
