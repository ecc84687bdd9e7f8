/// What a player does when the next frame is not decoded by the time it is due.
public enum LatePolicy: Hashable, Sendable, CustomStringConvertible {
    /// Hold the frame shown, cap the time accumulated at its duration, and advance one
    /// frame when the next is ready. No frame is ever skipped: a stall slows the
    /// animation. At most one frame advances per tick. The default.
    case stall
    /// Keep wall-clock time: skip frames that are already decoded, never past one that is
    /// not, and when a whole loop behind, restart timing rather than skip the loop.
    case catchUp

    public var description: String {
        switch self {
        case .stall: "stall"
        case .catchUp: "catch-up"
        }
    }
}
