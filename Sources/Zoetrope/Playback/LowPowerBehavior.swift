/// What a player does when the environment is in low-power mode.
public enum LowPowerBehavior: Hashable, Sendable {
    /// Show the poster, do not animate.
    case poster
    /// Animate, but update the display at most this many times a second (time still
    /// advances exactly; the stall policy then shows every frame, slower).
    case throttle(maxFramesPerSecond: Int)
    /// Animate normally.
    case ignore
}
