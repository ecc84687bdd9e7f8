/// The user's and system's wishes a player honours: read when playback starts, and applied
/// at once when they change (`AnimationPlayer.setEnvironment(_:)`).
///
/// Inject the application's real settings (accessibility reduce motion, an auto-play
/// preference, low-power mode); tests inject any combination.
public struct PlaybackEnvironment: Hashable, Sendable {
    /// Show the poster (first frame) instead of animating.
    public var reduceMotion: Bool
    /// Start animations on their own (`AnimationPlayer.autoPlay()`, `HeadlessDisplay`);
    /// when false they show the poster until `play()` is called.
    public var autoPlay: Bool
    /// The device is saving power.
    public var lowPower: Bool
    /// What low power means for animations.
    public var lowPowerBehavior: LowPowerBehavior

    /// An environment; the defaults animate freely, and show the poster in low power (as
    /// ImageIO-based players do); pass `.throttle(maxFramesPerSecond:)` to keep animating
    /// at a lower update rate instead.
    public init(
        reduceMotion: Bool = false, autoPlay: Bool = true, lowPower: Bool = false,
        lowPowerBehavior: LowPowerBehavior = .poster
    ) {
        self.reduceMotion = reduceMotion
        self.autoPlay = autoPlay
        self.lowPower = lowPower
        self.lowPowerBehavior = lowPowerBehavior
    }

    /// Animate freely.
    public static let standard = PlaybackEnvironment()
}
