/// Where a player is in its life.
public enum PlaybackState: Hashable, Sendable, CustomStringConvertible {
    /// Loaded, nothing shown yet (or after `prepareForReuse`).
    case idle
    /// Advancing with the clock.
    case playing
    /// Holding the frame shown; `play()` resumes from it.
    case paused
    /// Back on the poster; `play()` starts from frame 0.
    case stopped
    /// A finite animation played all its loops and rests on its last frame.
    case finished
    /// The environment (reduce motion, auto-play off, low power) asked for the poster only.
    case showingPoster
    /// A decode failed; the frame already shown stays.
    case failed

    public var description: String {
        switch self {
        case .idle: "idle"
        case .playing: "playing"
        case .paused: "paused"
        case .stopped: "stopped"
        case .finished: "finished"
        case .showingPoster: "showingPoster"
        case .failed: "failed"
        }
    }
}
