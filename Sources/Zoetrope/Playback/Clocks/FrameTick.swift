/// One tick of a `FrameClock`: the moment the next displayed image is meant to appear.
///
/// The player advances by the difference between consecutive target timestamps, never by
/// a nominal tick length, so a tick that arrives late (or a refresh rate that changes)
/// cannot make the animation drift. Timestamps are whole nanoseconds on the clock's own
/// monotonic timeline; only differences matter.
public struct FrameTick: Hashable, Sendable {
    /// When the frame produced for this tick will be visible, in nanoseconds.
    public var targetNanoseconds: Int64
    /// 0, 1, 2… in the order the clock produced the ticks.
    public var sequence: Int

    /// A tick at `targetNanoseconds`.
    package init(targetNanoseconds: Int64, sequence: Int) {
        self.targetNanoseconds = targetNanoseconds
        self.sequence = sequence
    }

    /// The target timestamp as a `Duration` since the clock's origin.
    package var target: Duration { .nanoseconds(targetNanoseconds) }
}
