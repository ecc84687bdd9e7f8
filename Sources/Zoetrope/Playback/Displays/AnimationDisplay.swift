/// Anything that can show a frame and say whether it is visible: a view, a layer, a
/// texture, a terminal, `HeadlessDisplay`.
///
/// `show` is called on the clock's thread (or a decode worker's, for a frame that lands
/// while paused, such as after a seek). The buffer shares storage with the player's; keep
/// it at most until the next `show`, or copy it — holding it longer makes the player's
/// next decode into that buffer copy it instead of reusing it.
public protocol AnimationDisplay: AnyObject, Sendable {
    /// Puts `frame` (frame `index` of the animation) on screen.
    func show(_ frame: PixelBuffer, index: Int)
    /// Whether the display can be seen. An invisible display makes the player decode
    /// nothing new and not count the time it is hidden.
    var isVisible: Bool { get }
}
