/// Anything that can show a frame and say whether it is visible: a view, a layer, a
/// texture, a terminal, `HeadlessDisplay`.
///
/// `show` is called outside the player's lock, on one of three threads: the clock's, while
/// playing; the caller's, when a control call (`stop()`, `seek(toFrame:)`, `autoPlay()`, a
/// poster-only `play()` under reduce motion or low power, …) finds the frame it asks for
/// already decoded; or a decode worker's, when the frame a paused or stopped player waits
/// for lands (decoded by this player, or published to a shared cache by another). A display
/// that must draw on one thread hops there itself.
///
/// The buffer shares storage with the player's; keep it at most until the next `show`, or
/// copy it — holding it longer makes the player's next decode into that buffer copy it
/// instead of reusing it.
public protocol AnimationDisplay: AnyObject, Sendable {
    /// Puts `frame` (frame `index` of the animation) on screen.
    func show(_ frame: PixelBuffer, index: Int)
    /// Whether the display can be seen. An invisible display makes the player decode
    /// nothing new and not count the time it is hidden.
    var isVisible: Bool { get }
}
