import Zoetrope

/// A display with no screen: it keeps the frame on show, for servers, tests and tools.
/// Thread-safe (`ConcurrentAnimationDisplay`): the player calls it on whatever thread
/// produced the frame, so it needs no main actor.
///
/// It shows either a still image or an animation, never both: setting a still stops and
/// detaches the animation; setting an animation replaces the still.
///
/// Neither keeps the other alive: the display refers to its player weakly, and the player
/// to its display. Keep references to both for as long as the animation should play: once
/// the player is freed, `content` reads `.empty` and the last frame stays; once the display
/// is freed, the player stops.
nonisolated public final class HeadlessDisplay: ConcurrentAnimationDisplay {
    /// What the display shows.
    public enum Content: Sendable {
        /// Nothing yet.
        case empty
        /// A still image.
        case still(PixelBuffer)
        /// The frames of this player.
        case animation(AnimationPlayer)
    }

    /// What is shown, with the player held weakly.
    private enum Shown {
        case empty
        case still(PixelBuffer)
        case animation(WeakPlayer)
    }
    private struct WeakPlayer { weak var player: AnimationPlayer? }

    private struct State {
        var content: Shown = .empty
        var frame: PixelBuffer?
        var index: Int?
        var visible: Bool
        var framesShown = 0
    }
    private let state: Locked<State>

    /// An empty display, visible unless told otherwise.
    public init(isVisible: Bool = true) {
        state = Locked(State(visible: isVisible))
    }

    /// Shows `image` and stops the animation, if any.
    public func setStill(_ image: PixelBuffer) {
        replaceContent(with: .still(image), frame: image)
    }

    /// Shows `player`'s animation instead of whatever was shown, starting it if `autoPlay`
    /// and the environment allow (the poster otherwise, until `player.play()`).
    public func setAnimation(_ player: AnimationPlayer, autoPlay: Bool = true) {
        replaceContent(with: .animation(WeakPlayer(player: player)), frame: nil)
        player.setDisplay(self)
        if autoPlay { player.autoPlay() } else { player.stop() }
    }

    /// Shows nothing; stops the animation, if any.
    public func clear() {
        replaceContent(with: .empty, frame: nil)
    }

    /// Puts `content` on show, then stops and detaches the player shown before (unless it
    /// is the one `content` shows), outside the lock.
    private func replaceContent(with content: Shown, frame: PixelBuffer?) {
        let old = state.withLock { s -> AnimationPlayer? in
            var old: AnimationPlayer?
            if case .animation(let p) = s.content { old = p.player }
            if case .animation(let new) = content, old === new.player { old = nil }
            s.content = content
            s.frame = frame
            s.index = nil
            return old
        }
        old?.stop()
        old?.setDisplay(nil)
    }

    public func show(_ frame: PixelBuffer, index: Int) {
        state.withLock { s in
            // A frame from an animation that was replaced meanwhile is ignored.
            guard case .animation = s.content else { return }
            s.frame = frame
            s.index = index
            s.framesShown += 1
        }
    }

    public var isVisible: Bool { state.withLock { $0.visible } }
    /// Hides or shows the display; a hidden display's player pauses its clock time.
    public func setVisible(_ visible: Bool) { state.withLock { $0.visible = visible } }

    /// What is shown (`.empty` once the animation's player has been freed).
    public var content: Content {
        state.withLock { s in
            switch s.content {
            case .empty: .empty
            case .still(let image): .still(image)
            case .animation(let p): p.player.map { .animation($0) } ?? .empty
            }
        }
    }
    /// The pixels on show (the still, or the animation's current frame).
    public var currentFrame: PixelBuffer? { state.withLock { $0.frame } }
    /// The animation frame on show, or nil for a still.
    public var currentFrameIndex: Int? { state.withLock { $0.index } }
    /// Animation frames shown so far.
    public var framesShown: Int { state.withLock { $0.framesShown } }
}
