/// What a decode job does with its result on the decode thread, before (and without) the
/// player's lock: a shared frame is published to, or abandoned in, its cache so that
/// waiting players wake; a private frame goes straight to its player.
struct DecodeOutlet: Sendable {
    /// Runs when the decode ends, with its result.
    let publish: @Sendable (Result<PixelBuffer, AnimatedImageError>) -> Void
    /// Runs for a successful decode the player will not hold (it was reset or freed meanwhile).
    let discard: @Sendable () -> Void

    /// A frame decoded for the player alone: nothing to do besides handing it over.
    static let player = DecodeOutlet(publish: { _ in }, discard: {})
}
