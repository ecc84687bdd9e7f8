/// What every animation player offers: control, rate, observation and diagnostics.
/// `AnimationPlayer` is the shared implementation.
package protocol Player: AnyObject, Sendable {
    /// Where the player is.
    var state: PlaybackState { get }
    /// The frame on the display, or nil before any is shown.
    var currentFrameIndex: Int? { get }
    /// Playback speed, 0.25 to 4 (values outside are clamped).
    var rate: Double { get }
    /// Changes the speed from the next tick.
    func setRate(_ rate: Double)
    /// Starts or resumes, honouring the environment.
    func play()
    /// Holds the frame shown.
    func pause()
    /// Back to the poster; the next `play()` starts over.
    func stop()
    /// Shows frame `index` (when decoded) and continues from it.
    func seek(toFrame index: Int)
    /// Frees every buffer and detaches from the clock; the player can be loaded again.
    func prepareForReuse()
    /// Calls `observer` for every event until the returned observation is cancelled.
    func observe(_ observer: @escaping @Sendable (PlayerEvent) -> Void) -> Observation
    /// Counters and memory held.
    var diagnostics: PlayerDiagnostics { get }
}
