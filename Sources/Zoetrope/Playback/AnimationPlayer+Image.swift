extension AnimationPlayer {
    /// A player of `image`, showing on `display`, ticking on `clock` — by default the one
    /// `TimerClock.shared` that every player without a clock of its own shares.
    ///
    /// The image's poster is the player's frame 0 for good: `prepare()`, `stop()`, every
    /// new play and a poster-only environment show it without decoding, so the player
    /// never asks for frame 0 (a source still draws it onto its canvas when frame 1 builds
    /// on it). Nothing is decoded until `prepare()`, `play()` or `seek(toFrame:)`, on a new
    /// decoding session over the image's bytes. Should that session fail to open (it cannot
    /// for an image that opened once, short of running out of memory), the first decode
    /// reports the error with `PlayerEvent.decodeFailed` and the state `.failed`.
    public convenience init(image: AnimatedImage, display: (any AnimationDisplay)? = nil,
                            clock: any FrameClock = TimerClock.shared,
                            configuration: PlayerConfiguration = PlayerConfiguration()) {
        let source: any FrameSource
        do {
            source = try image.makeFrameSource()
        } catch {
            source = FailedFrameSource(info: image.info, options: image.options, error: error)
        }
        self.init(source: source, clock: clock, display: display, configuration: configuration,
                  imageIdentity: image.sharedCacheKey)
        let poster = image.poster
        perform { e, _ in e.adoptPoster(poster) }
    }

    /// Whether the animation is advancing: playing, not paused, stopped, finished, failed
    /// or held on its poster by the environment.
    public var isAnimating: Bool { state == .playing }
}
