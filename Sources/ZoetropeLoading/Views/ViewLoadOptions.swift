import Zoetrope

/// How `AnimatedImageLoader.load(_:into:options:)` shows an image on a display.
public struct ViewLoadOptions: Sendable {
    /// Shown (with index -1) while the image loads, unless a memory hit shows it at once.
    public var placeholder: PixelBuffer?
    /// Shown (with index -1) when the load fails.
    public var failureImage: PixelBuffer?
    /// The clock the shared player runs on.
    public var clock: any FrameClock
    /// How the shared player plays (buffering, environment, delay policy).
    public var playerConfiguration: PlayerConfiguration
    /// Called on the main actor when the display's load ends: success once the image (or
    /// its first frame, while the rest streams) is shown, or the failure. Not called for a
    /// load that was cancelled (the display asked for something else).
    public var completion: (@MainActor @Sendable (Result<Void, any Error>) -> Void)?

    /// Options with no placeholder, no failure image, the shared timer clock and the
    /// default player configuration.
    public init(
        placeholder: PixelBuffer? = nil, failureImage: PixelBuffer? = nil, clock: any FrameClock = TimerClock.shared,
        playerConfiguration: PlayerConfiguration = PlayerConfiguration(),
        completion: (@MainActor @Sendable (Result<Void, any Error>) -> Void)? = nil
    ) {
        self.placeholder = placeholder
        self.failureImage = failureImage
        self.clock = clock
        self.playerConfiguration = playerConfiguration
        self.completion = completion
    }
}
