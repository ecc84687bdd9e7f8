extension AnimationPlayer {
    /// A player of `image`, showing on `display`, ticking on `clock` — by default the one
    /// `TimerClock.shared` that every player without a clock of its own shares.
    ///
    /// The image's poster is the player's frame 0 for good: `prepare()`, `stop()`, every
    /// new play and a poster-only environment show it without decoding, so the player
    /// never asks for frame 0 (a source still draws it onto its canvas when frame 1 builds
    /// on it). Frames are decoded from `prepare()`, `play()` or `seek(toFrame:)` on, on a new
    /// decoding session that reuses the index the image read (for the formats whose
    /// sessions can share one; others open the bytes again). Should that session fail to
    /// open (it cannot for an image that opened once, short of running out of memory), the
    /// first decode reports the error with `PlayerEvent.decodeFailed` and the state `.failed`.
    ///
    /// Making the player reads none of the image's bytes on the calling thread. Under a
    /// sharing policy with no image key, the image is named in the cache by the SHA-256 of
    /// its bytes plus its options (`AnimatedImage.sharedCacheKey`), so that players of the
    /// same bytes share frames whoever loaded them: the hash is computed once per image (and
    /// its copies), on a thread of its own, when the first such player first asks for a
    /// frame; its frames wait for it as for frames another player decodes.
    public convenience init(
        image: AnimatedImage, display: (any AnimationDisplay)? = nil,
        clock: any FrameClock = TimerClock.shared,
        configuration: PlayerConfiguration = PlayerConfiguration()
    ) {
        let source: any FrameSource
        do {
            source = try image.makeFrameSource()
        } catch {
            source = FailedFrameSource(info: image.info, options: image.options, error: error)
        }
        self.init(
            source: source, clock: clock, display: display, configuration: configuration,
            imageIdentity: .content(image.contentIdentity))
        let poster = image.poster
        perform { e, _ in e.adoptPoster(poster) }
    }

    /// Whether the animation is advancing: playing, not paused, stopped, finished, failed
    /// or held on its poster by the environment.
    public var isAnimating: Bool { state == .playing }

    /// Switches to `image` (see `load(_ source:sharedImageKey:)`); under a
    /// sharing policy without a key the frames are shared under `image.sharedCacheKey`, so
    /// players of the same bytes share them (hashed on a thread of its own when first needed,
    /// see `AnimationPlayer(image:)`).
    public func load(_ image: AnimatedImage, sharedImageKey: String? = nil) throws {
        let source = try image.makeFrameSource()
        load(source, sharedImageKey: sharedImageKey, imageIdentity: .content(image.contentIdentity))
    }

    /// A source's own name in a shared cache: the object itself. The player holds its
    /// source, so no other live source can take the name while a frame is leased under it.
    static func identity(of source: any FrameSource) -> SharedImageName {
        .known("source:\(UInt(bitPattern: ObjectIdentifier(source)))")
    }
}
