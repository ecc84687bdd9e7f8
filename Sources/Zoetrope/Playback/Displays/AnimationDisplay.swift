/// Anything that can show a frame and say whether it is visible: a view, a layer, a
/// texture, a terminal, `HeadlessDisplay`.
///
/// The requirements are isolated to the main actor, so a UI class conforms with plain
/// main-actor state and no locks:
///
/// ```swift
/// @MainActor final class AnimatedImageView: AnimationDisplay {
///     var image: PixelBuffer?
///     var isVisible = true
///     func show(_ frame: PixelBuffer, index: Int) { image = frame }
/// }
/// ```
///
/// **Where `show` runs.** Always on the main actor. When the player produces a frame on
/// the main thread (a control call made on the main actor, or a clock ticked from the main
/// actor — a display link driving a `ManualClock`) the display is called at once, with no
/// hop. When it produces one elsewhere (the shared `TimerClock`'s thread, a decode worker)
/// the frame joins the player's queue for this display and one task on the main actor hands
/// the queue over. A display whose requirements are `nonisolated` and thread-safe adopts
/// `ConcurrentAnimationDisplay` instead and is called on the producing thread.
///
/// **What is guaranteed.**
/// - Order: frames reach the display in the order the player produced them, each once;
///   none is lost or reordered by a hop. (Only a main actor that falls more than
///   8 frames behind — blocked, say — skips the oldest waiting frames, so that waiting
///   frames cannot hold the player's buffers without bound; the order of the rest holds.
///   `PlayerDiagnostics.framesSkippedByDisplay` counts them.)
/// - No stale frame: a frame produced before `stop()`, `load(_:)`, `prepareForReuse()` or
///   `setDisplay(_:)` is never shown once that call has returned on the main actor (frames
///   still queued are dropped; the poster `stop()` shows is shown). Called from another
///   thread, the same holds except for the one frame the main actor may be showing at that
///   moment. `pause()` drops nothing: frames produced before it are still shown, then no more.
/// - `isVisible` is read on the main actor; ticks that arrive on another thread use the
///   value read at the last hand-over (at most one tick old).
///
/// The main actor must be served — an app's run loop, an `async` main, `dispatchMain()`,
/// a Swift Testing `@MainActor` test that awaits — for frames produced elsewhere to arrive;
/// a program that blocks its main thread in a synchronous loop uses a
/// `ConcurrentAnimationDisplay` (as `zoetrope play` does) or ticks a `ManualClock` there.
///
/// **Lifetime.** A player (and an `AnimatedContentController`) holds its display weakly, so a
/// view may own its player and be its display: when the application lets the view go it is
/// freed, and the player stops (it shows nothing more and leaves its clock).
///
/// The buffer shares storage with the player's; keep it at most until the next `show`, or
/// copy it — holding it longer makes the player's next decode into that buffer copy it
/// instead of reusing it.
@MainActor
public protocol AnimationDisplay: AnyObject, Sendable {
    /// Puts `frame` (frame `index` of the animation) on screen.
    func show(_ frame: PixelBuffer, index: Int)
    /// Whether the display can be seen. An invisible display makes the player decode
    /// nothing new and not count the time it is hidden.
    var isVisible: Bool { get }
}
