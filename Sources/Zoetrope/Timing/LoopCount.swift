/// How many times an animation plays in total (not how many times it repeats).
///
/// Every format's stored value is normalised to total plays (see `Docs/FormatRules.md`):
/// a GIF loop extension of 2 is 3 plays, an APNG `num_plays` of 2 is 2 plays.
public enum LoopCount: Hashable, Sendable, CustomStringConvertible {
    /// Plays forever.
    case infinite
    /// Plays this many times (at least 1), then rests on the last frame.
    case plays(Int)

    /// One play, then rest on the last frame.
    public static let once = LoopCount.plays(1)

    /// The number of plays, or nil when infinite.
    public var finitePlays: Int? {
        if case .plays(let n) = self { return n }
        return nil
    }

    /// This count with finite plays above `maximum` lowered to `maximum`.
    package func capped(at maximum: Int) -> LoopCount {
        if case .plays(let n) = self, n > maximum { return .plays(maximum) }
        return self
    }

    /// "infinite" or the number of plays.
    public var description: String {
        switch self {
        case .infinite: "infinite"
        case .plays(let n): "\(n)"
        }
    }
}
