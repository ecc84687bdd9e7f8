import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AnimationPlayer {
    /// Plays `data` and hands every frame to `body` on time — for code that only wants
    /// frames, not a view. Keep the returned handle; `stop()` on it (or on a delivered
    /// frame) ends playback. Frames arrive on the clock's thread.
    ///
    /// The clock defaults to a `TimerClock` fitted to the animation.
    public static func playFrames(
        of data: Data, registry: CoderRegistry = .shared, options: DecodingOptions = .default,
        clock: (any FrameClock)? = nil, configuration: PlayerConfiguration = PlayerConfiguration(),
        _ body: @escaping @Sendable (DeliveredFrame) -> Void
    ) throws -> PlaybackHandle {
        let source = try registry.makeFrameSource(data: data, options: options)
        return playFrames(of: source, clock: clock, configuration: configuration, body)
    }

    /// Plays `source`, handing every frame to `body`. See `playFrames(of:registry:…)`.
    package static func playFrames(
        of source: any FrameSource, clock: (any FrameClock)? = nil,
        configuration: PlayerConfiguration = PlayerConfiguration(),
        _ body: @escaping @Sendable (DeliveredFrame) -> Void
    ) -> PlaybackHandle {
        let display = FrameCallbackDisplay(body)
        let player = AnimationPlayer(source: source, clock: clock ?? TimerClock(), display: display, configuration: configuration)
        let handle = PlaybackHandle(player: player, display: display)
        display.attach(handle)
        player.play()
        return handle
    }
}
