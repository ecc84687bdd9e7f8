import Zoetrope

/// Keeps a `playFrames` playback alive; `stop()` ends it. Dropping the handle also ends it.
public final class PlaybackHandle: Sendable {
    /// The player doing the work, for control beyond stopping.
    public let player: AnimationPlayer
    /// The display the frames go through: the player holds it weakly, the handle keeps it.
    private let display: any AnimationDisplay
    private let stopped = Locked(false)
    private let finished = Locked(false)
    private let observation = Locked<Observation?>(nil)

    init(player: AnimationPlayer, display: any AnimationDisplay) {
        self.player = player
        self.display = display
        let s = player.observe { [weak self] event in
            if case .finished = event { self?.finished.withLock { $0 = true } }
        }
        observation.withLock { $0 = s }
    }

    /// Stops delivering frames and frees the player's buffers.
    public func stop() {
        let first = stopped.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        if first {
            player.pause()
            player.setDisplay(nil)
            player.prepareForReuse()
        }
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { stopped.withLock { $0 } }
    /// Whether a finite animation played all its loops.
    public var isFinished: Bool { finished.withLock { $0 } }

    deinit { stop() }
}
