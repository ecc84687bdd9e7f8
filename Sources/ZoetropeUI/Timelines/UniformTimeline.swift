import Zoetrope

/// An animation re-timed on a fixed tick: every `interval`, show `frames[k]`. This is what
/// APIs that play images at one constant rate need (an image array with one total
/// duration, a fixed-rate timer, a sprite sheet), made by `AnimationInfo.uniformTimeline`.
public struct UniformTimeline: Hashable, Sendable {
    /// How long each tick lasts.
    public let interval: FrameDuration
    /// The frame to show at each tick, in order; one play is `frames.count` ticks.
    public let frames: [Int]
    /// Whether every frame's duration is a whole number of ticks, so the timeline shows
    /// each frame exactly as long as the animation does. False when the interval had to be
    /// raised to the floor or to respect the tick cap: frames are then sampled at each
    /// tick's start and their times rounded to ticks (a frame shorter than a tick may not appear).
    public let isExact: Bool

    /// Creates a timeline.
    public init(interval: FrameDuration, frames: [Int], isExact: Bool) {
        self.interval = interval
        self.frames = frames
        self.isExact = isExact
    }

    /// One play: `interval × frames.count`.
    public var duration: FrameDuration { interval * Int64(frames.count) }
}
