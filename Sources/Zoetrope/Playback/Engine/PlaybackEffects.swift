/// What an engine step wants done once the player's lock is released.
struct PlaybackEffects: Sendable {
    var show: (frame: PixelBuffer, index: Int)?
    var events: [PlayerEvent] = []
    var requests: [DecodeRequest] = []
    /// The clock subscription should exist (true), be cancelled (false), or stay as is.
    var wantsTicks: Bool?
}
