/// A display that takes frames on any thread: its `show` and `isVisible` are `nonisolated`
/// and thread-safe (`HeadlessDisplay`, the `playFrames` closure, the tool's terminal).
///
/// The player calls it on the thread that produced the frame — the clock's while playing,
/// the caller's for a control call, a decode worker's when a waited-for frame lands — with
/// no hop to the main actor, so it works in processes that never run the main actor.
/// Frames still arrive in order, one `show` at a time, and frames produced before `stop()`,
/// `load(_:)`, `prepareForReuse()` or `setDisplay(_:)` that have not been handed over yet
/// are dropped by that call; a `show` already running on another thread finishes.
///
/// A type declares itself `nonisolated` to adopt it (conforming to a main-actor protocol
/// would otherwise make the whole class main-actor isolated):
///
/// ```swift
/// nonisolated final class FrameCounter: ConcurrentAnimationDisplay {
///     private let count = Mutex(0)
///     func show(_ frame: PixelBuffer, index: Int) { count.withLock { $0 += 1 } }
///     var isVisible: Bool { true }
/// }
/// ```
public protocol ConcurrentAnimationDisplay: AnimationDisplay {
    /// Puts `frame` (frame `index` of the animation) on screen; called on any thread.
    nonisolated func show(_ frame: PixelBuffer, index: Int)
    /// Whether the display can be seen; read on any thread.
    nonisolated var isVisible: Bool { get }
}
