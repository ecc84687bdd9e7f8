/// Decides how many decoded frames a player keeps and how far ahead it decodes.
///
/// A player keeps a window of frames starting at the one shown: the shown frame, then the
/// next ones in play order (wrapping into the next loop). The poster (frame 0) is kept
/// besides, and counts as frame 0 of the window. Policies are values and can be swapped
/// on a playing player (`AnimationPlayer.setBufferPolicy`).
///
/// Besides the window, a policy can ask for what the built-in ones use, each a requirement
/// with a default, so an application's own policy gets the same behaviour:
/// `keepsEveryFrame` (every frame kept once decoded, decoded in bulk) and `frameSharing`
/// (frames leased from a `SharedFrameCache` instead of the player's own buffers).
public protocol FrameBufferPolicy: Sendable {
    /// Frames to keep, counting the one shown: at least 2 (1 for a still), at most
    /// `context.frameCount`. Players clamp the answer into that range.
    func windowSize(in context: FrameBufferContext) -> Int
    /// A short name for diagnostics and `zoetrope trace`.
    var name: String { get }
    /// Whether every frame is kept once decoded. The player then keeps a window of every
    /// frame (whatever `windowSize(in:)` answers) and decodes the frames in one ordered
    /// pass whose workers decode the next frames' data meanwhile (bulk decoding). Default:
    /// false.
    var keepsEveryFrame: Bool { get }
    /// Where frames come from: nil (the default) for the player's own buffers; a
    /// `FrameSharing` to lease them from a `SharedFrameCache`, shared with every player
    /// of the same image at the same size and alpha mode.
    var frameSharing: FrameSharing? { get }
    /// This policy for another image that `AnimationPlayer.load` names `imageKey` (nil: by
    /// its own identity), so that `AnimationPlayer.bufferPolicy` reports the key in use.
    /// The player keys the new image's frames that way whatever this answers. Default:
    /// the policy unchanged.
    func sharingImage(named imageKey: String?) -> any FrameBufferPolicy
}

extension FrameBufferPolicy {
    /// False: the window is what `windowSize(in:)` answers, decoded frame by frame.
    public var keepsEveryFrame: Bool { false }
    /// Nil: frames are decoded into the player's own buffers.
    public var frameSharing: FrameSharing? { nil }
    /// The policy unchanged.
    public func sharingImage(named imageKey: String?) -> any FrameBufferPolicy { self }
}

extension FrameBufferPolicy {
    /// The window a player actually uses: the policy's answer (every frame when
    /// `keepsEveryFrame`), clamped, and two frames under memory pressure.
    package func effectiveWindow(in context: FrameBufferContext) -> Int {
        let n = max(1, context.frameCount)
        let floor = min(2, n)
        var w = keepsEveryFrame ? n : min(max(windowSize(in: context), floor), n)
        if context.underMemoryPressure { w = floor }
        return w
    }
}

extension FrameBufferPolicy where Self == AheadBufferPolicy {
    /// The default: the frame shown and the next one. Memory: the poster plus two frames.
    public static var oneAhead: AheadBufferPolicy { AheadBufferPolicy(framesAhead: 1) }
    /// The frame shown and the next `n` (at least 1).
    public static func ahead(_ n: Int) -> AheadBufferPolicy { AheadBufferPolicy(framesAhead: n) }
}

extension FrameBufferPolicy where Self == KeepAllBufferPolicy {
    /// Decode every frame once and reuse it across loops.
    public static var keepAll: KeepAllBufferPolicy { KeepAllBufferPolicy() }
}

extension FrameBufferPolicy where Self == MemoryBudgetBufferPolicy {
    /// Keep all frames when they fit in `bytes`, else the largest window that fits (at least two frames).
    public static func memoryBudget(bytes: Int) -> MemoryBudgetBufferPolicy { MemoryBudgetBufferPolicy(budgetBytes: bytes) }
}

extension FrameBufferPolicy where Self == SharedBufferPolicy {
    /// Share decoded frames through `cache` with every player of the same image: named by
    /// `imageKey`, or, when nil, by the image's own identity (see `SharedBufferPolicy`).
    public static func shared(_ cache: SharedFrameCache = .shared, imageKey: String? = nil, framesAhead: Int = 1) -> SharedBufferPolicy {
        SharedBufferPolicy(cache: cache, imageKey: imageKey, framesAhead: framesAhead)
    }
}
