extension AnimationPlayer {
    /// The order frames are played in (`PlayerConfiguration.playbackMode`, or the last
    /// `setPlaybackMode`).
    public var playbackMode: PlaybackMode { box.withLock { $0.engine.mode } }

    /// Switches the play order from the next frame on; the frame shown stays, at its first
    /// place in the new order.
    public func setPlaybackMode(_ mode: PlaybackMode) { perform { $0.setMode(mode, into: &$1) } }

    /// How far through the current play, from 0 (its first frame just shown, or nothing
    /// shown yet) to 1 (a finished animation), in display time: the durations of the places
    /// passed in play order plus the time spent in the frame shown. A bounce's play is the
    /// way out and back.
    public var progress: Double { box.withLock { $0.engine.playFraction } }

    /// The display time of one play in the current mode (a bounce's is out and back).
    public var playDuration: Duration { .nanoseconds(box.withLock { $0.engine.playNanoseconds }) }

    /// The pixels of the frame on show (nil before the first frame is shown). The buffer
    /// shares storage with the player's; copy it to keep it past the next frame.
    public var currentFrame: PixelBuffer? {
        box.withLock { b in b.engine.current.flatMap { b.engine.store.buffer($0) } }
    }

    /// Moves to `time` of display time into the current play, in play order, mapped
    /// through the frames' display durations: the frame whose span holds `time` shows (as
    /// soon as it is decoded) and plays on for the rest of its duration. Times outside the
    /// play are clamped to it. As with `seek(toFrame:)`, a stopped or finished player
    /// becomes paused on that frame, and a finished one plays all its plays again on `play()`.
    public func seek(to time: Duration) {
        perform { $0.seek(toNanoseconds: PlaybackEngine.nanoseconds(time), into: &$1) }
    }

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
