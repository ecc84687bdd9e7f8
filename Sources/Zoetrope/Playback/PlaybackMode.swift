/// The order a player shows an animation's frames in (`PlayerConfiguration.playbackMode`).
///
/// With n frames, one play is:
/// - `forward`: 0, 1, …, n−1 (the file's order; the default);
/// - `reverse`: n−1, …, 1, 0;
/// - `bounce`: 0, 1, …, n−1, n−2, …, 1 — forward, then back;
/// - `reverseBounce`: n−1, …, 0, 1, …, n−2 — back, then forward.
///
/// A bounce counts as one play (as in SDAnimatedImagePlayer): a file that says "play 3
/// times" bounces 3 times. The turning frames are shown once (the least surprising rule:
/// no frame stays up for twice its duration at a turn): the last frame is not repeated at
/// the far end, and the first frame is not repeated where one play meets the next. The
/// last play of a finite bounce
/// also returns to where it began (0 for `bounce`, n−1 for `reverseBounce`) and rests
/// there. Frame durations are those of the frames shown, whichever the direction.
///
/// The poster is frame 0 in every mode (it is what `stop()` and poster-only environments
/// show); frames are decoded ahead in play order, so a reverse window holds the frames
/// before the one shown, and memory stays the window the buffer policy asks for.
public enum PlaybackMode: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// First to last frame.
    case forward
    /// Last to first frame.
    case reverse
    /// First to last, then back towards the first; one bounce is one play.
    case bounce
    /// Last to first, then forward towards the last; one bounce is one play.
    case reverseBounce

    /// The case name, such as "bounce".
    public var description: String {
        switch self {
        case .forward: "forward"
        case .reverse: "reverse"
        case .bounce: "bounce"
        case .reverseBounce: "reverseBounce"
        }
    }
}
