/// What a player tells its observers. Delivered on the thread that caused it (the clock's
/// for frames, a decode worker's for failures), never under the player's lock.
public enum PlayerEvent: Hashable, Sendable {
    /// Frame `index` is now on the display.
    case frameShown(index: Int)
    /// A play of the animation ended; `plays` have completed so far.
    case loopCompleted(plays: Int)
    /// A finite animation ended and rests on its last frame.
    case finished
    /// Frame `waitingFor` was due but not decoded; the frame shown is held.
    case stalled(waitingFor: Int)
    /// Decoding frame `index` failed; playback paused on the frame already shown.
    case decodeFailed(index: Int, error: AnimatedImageError)
}
