import Zoetrope

/// Holds what one view shows — a still image or an animation, never both — for any
/// `AnimationDisplay` (the still-or-animated view of Examples/StillOrAnimatedView; `HeadlessDisplay` has the same rule
/// built in).
///
/// A view keeps one controller for its display. `setStill` puts a still on the display and
/// stops the animation shown before; `setAnimation` starts a player on the display and
/// stops the one before. Only the current content ever reaches the display: a replaced
/// player is stopped and cut off, so a frame it was about to show when it was replaced is
/// dropped, not drawn over the new content.
///
/// The controller owns the player it shows (a view holding the controller keeps the
/// animation alive) and holds its display weakly, as the player does: a view that owns its
/// controller and is its display is freed when the application lets it go, and its
/// player with it. It lives on the main actor, as views do.
///
/// ```swift
/// let controller = AnimatedContentController(display: view)
/// controller.setAnimation(player)      // animates (if the environment allows)
/// controller.setStill(thumbnail)       // the animation stops; only the still shows
/// ```
@MainActor
public final class AnimatedContentController {
    /// What the controller shows.
    public enum Content: Sendable {
        /// Nothing.
        case empty
        /// A still image.
        case still(PixelBuffer)
        /// The frames of this player.
        case animation(AnimationPlayer)
    }

    /// The display everything goes to, held weakly (nil once it is freed).
    public var display: (any AnimationDisplay)? { weakDisplay }
    private weak var weakDisplay: (any AnimationDisplay)?
    /// What is shown now.
    public private(set) var content: Content = .empty
    /// The gate the current player shows through; closed when it is replaced.
    private var gate: GatedDisplay?

    /// A controller for `display`, showing nothing yet.
    public init(display: any AnimationDisplay) {
        weakDisplay = display
    }

    /// The player shown, if the content is an animation.
    public var player: AnimationPlayer? {
        if case .animation(let p) = content { return p }
        return nil
    }

    /// Shows `image` (as `show(image, index: 0)`) and stops the animation, if any.
    public func setStill(_ image: PixelBuffer) {
        retire()
        content = .still(image)
        display?.show(image, index: 0)
    }

    /// Shows `player`'s animation instead of whatever was shown, starting it if `autoPlay`
    /// and the environment allow (the poster otherwise, until `player.play()`). The
    /// controller keeps `player` alive until the content changes.
    public func setAnimation(_ player: AnimationPlayer, autoPlay: Bool = true) {
        if case .animation(let current) = content, current === player { return }
        retire()
        guard let display else { return }
        let gate = GatedDisplay(display)
        self.gate = gate
        content = .animation(player)
        player.setDisplay(gate)
        if autoPlay { player.autoPlay() } else { player.stop() }
    }

    /// Shows nothing more (the display keeps what it last drew); stops the animation, if any.
    public func clear() {
        retire()
        content = .empty
    }

    /// Cuts the current player off the display, then stops and detaches it.
    private func retire() {
        gate?.close()
        gate = nil
        if case .animation(let old) = content {
            old.stop()
            old.setDisplay(nil)
        }
    }
}
