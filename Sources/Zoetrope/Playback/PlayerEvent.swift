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
    /// The display was freed (nothing else held it: a player holds its display weakly),
    /// so nothing can be seen any more and the player stopped. A display that only a
    /// proxy or wrapper referred to is gone as soon as the wrapper is; keep the display
    /// itself alive for as long as it should show frames.
    case displayReleased
}
