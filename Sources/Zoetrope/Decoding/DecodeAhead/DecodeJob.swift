/// One frame decode a player hands to a `DecodeExecutor`.
public struct DecodeJob: Sendable {
    /// The frame being decoded.
    public let frameIndex: Int
    /// The source it is decoded from (an executor may use it to estimate cost).
    public let source: any FrameSource
    /// Which player submitted it; executors use it for fairness.
    package let ownerID: Int
    private let work: @Sendable () -> Void

    /// A job running `work`. Players build their own; tests build them to drive executors.
    package init(frameIndex: Int, source: any FrameSource, ownerID: Int, work: @escaping @Sendable () -> Void) {
        self.frameIndex = frameIndex
        self.source = source
        self.ownerID = ownerID
        self.work = work
    }

    /// Decodes and delivers the result to the player.
    public func run() { work() }
}
