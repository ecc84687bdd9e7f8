extension AnimationPlayer {
    /// The order frames are played in (`PlayerConfiguration.playbackMode`, or the last
    /// `setPlaybackMode`).
    public var playbackMode: PlaybackMode { box.withLock { $0.engine.mode } }

    /// Switches the play order from the next frame on; the frame shown stays, at its first
    /// place in the new order.
    public func setPlaybackMode(_ mode: PlaybackMode) { perform { $0.setMode(mode, into: &$1) } }
}
