/// Turns the durations a file stores into the durations a player shows.
///
/// Coders report raw durations; the player (and `zoetrope info`/`frames`) apply a policy.
/// The default is what browsers do: any duration of 10 ms or less, including zero and a
/// missing delay, plays as 100 ms.
public struct DelayPolicy: Sendable {
    private let transform: @Sendable (FrameDuration) -> FrameDuration

    /// A policy from a function of the raw duration.
    public init(_ transform: @escaping @Sendable (FrameDuration) -> FrameDuration) {
        self.transform = transform
    }

    /// The display duration of a frame whose file stores `raw`.
    public func displayDuration(for raw: FrameDuration) -> FrameDuration {
        transform(raw)
    }

    /// Durations at or below `threshold` become `replacement`; others are kept.
    public static func clamping(atOrBelow threshold: FrameDuration, to replacement: FrameDuration) -> DelayPolicy {
        DelayPolicy { raw in raw <= threshold ? replacement : raw }
    }

    /// The browser rule: ≤ 10 ms (including 0 and missing) → 100 ms.
    public static let browser = DelayPolicy.clamping(atOrBelow: .milliseconds(10), to: .milliseconds(100))

    /// What ImageIO-based players do (WebKit's image decoders, and players built on
    /// `CGImageSource` such as SDWebImage's): any duration under 11 ms, including zero and
    /// a missing delay, plays as 100 ms. It differs from `browser` only between 10 and 11 ms.
    public static let imageIO = DelayPolicy { raw in raw < .milliseconds(11) ? .milliseconds(100) : raw }

    /// The default policy, `browser`.
    public static let `default` = browser

    /// Raw durations, unchanged. A zero duration then means "as fast as the clock ticks".
    public static let exact = DelayPolicy { $0 }

    /// Whether this policy changes `raw`.
    package func clamps(_ raw: FrameDuration) -> Bool {
        displayDuration(for: raw) != raw
    }
}
