extension AnimationPlayer {
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
        perform { $0.seek(toNanoseconds: time.wholeNanoseconds, into: &$1) }
    }
}
