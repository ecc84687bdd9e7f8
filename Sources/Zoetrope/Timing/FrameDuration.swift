/// An exact duration, as a reduced fraction of a second.
///
/// Formats store delays in different units (GIF centiseconds, APNG `num/den` seconds,
/// WebP milliseconds, AVIF media-timescale ticks). Keeping them as exact fractions means
/// a timeline summed over thousands of frames never drifts.
public struct FrameDuration: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Numerator, in seconds. Never negative.
    public let numerator: Int64
    /// Denominator, in seconds. Always positive.
    public let denominator: Int64

    /// Creates `numerator / denominator` seconds, reduced. A zero or negative denominator,
    /// or a negative numerator, gives zero.
    public init(numerator: Int64, denominator: Int64) {
        guard denominator > 0, numerator > 0 else {
            self.numerator = 0
            self.denominator = 1
            return
        }
        let g = FrameDuration.gcd(numerator, denominator)
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    /// Zero seconds: what a missing delay is reported as.
    public static let zero = FrameDuration(numerator: 0, denominator: 1)

    /// Whole milliseconds.
    public static func milliseconds(_ ms: Int64) -> FrameDuration { FrameDuration(numerator: ms, denominator: 1000) }
    /// Whole centiseconds (the GIF unit).
    public static func centiseconds(_ cs: Int64) -> FrameDuration { FrameDuration(numerator: cs, denominator: 100) }
    /// Whole microseconds.
    public static func microseconds(_ us: Int64) -> FrameDuration { FrameDuration(numerator: us, denominator: 1_000_000) }
    /// Whole seconds.
    public static func seconds(_ s: Int64) -> FrameDuration { FrameDuration(numerator: s, denominator: 1) }

    /// Whether this is exactly zero.
    public var isZero: Bool { numerator == 0 }

    /// The value in milliseconds, as a `Double` (for display and JSON only).
    public var milliseconds: Double { Double(numerator) * 1000 / Double(denominator) }

    /// The value in seconds, as a `Double` (for display only).
    public var seconds: Double { Double(numerator) / Double(denominator) }

    /// The value as a Swift `Duration`, rounded to the nearest attosecond.
    public var duration: Duration {
        let whole = numerator / denominator
        let rest = numerator % denominator
        // rest / denominator seconds in attoseconds; rest < denominator so no overflow in 128 bits.
        let atto = (Int128(rest) * 1_000_000_000_000_000_000 + Int128(denominator) / 2) / Int128(denominator)
        return .seconds(whole) + Duration(secondsComponent: 0, attosecondsComponent: Int64(atto))
    }

    /// Compares exactly, by cross-multiplying in 128 bits.
    public static func < (lhs: FrameDuration, rhs: FrameDuration) -> Bool {
        Int128(lhs.numerator) * Int128(rhs.denominator) < Int128(rhs.numerator) * Int128(lhs.denominator)
    }

    /// The exact sum. Traps only if the reduced result does not fit 64 bits.
    public static func + (lhs: FrameDuration, rhs: FrameDuration) -> FrameDuration {
        let g = gcd(lhs.denominator, rhs.denominator)
        let den = Int128(lhs.denominator / g) * Int128(rhs.denominator)
        let num = Int128(lhs.numerator) * Int128(rhs.denominator / g) + Int128(rhs.numerator) * Int128(lhs.denominator / g)
        return reduced(num, den)
    }

    /// The exact difference, clamped at zero.
    public static func - (lhs: FrameDuration, rhs: FrameDuration) -> FrameDuration {
        guard rhs < lhs else { return .zero }
        let g = gcd(lhs.denominator, rhs.denominator)
        let den = Int128(lhs.denominator / g) * Int128(rhs.denominator)
        let num = Int128(lhs.numerator) * Int128(rhs.denominator / g) - Int128(rhs.numerator) * Int128(lhs.denominator / g)
        return reduced(num, den)
    }

    /// The exact product with a whole number.
    public static func * (lhs: FrameDuration, rhs: Int64) -> FrameDuration {
        reduced(Int128(lhs.numerator) * Int128(max(rhs, 0)), Int128(lhs.denominator))
    }

    /// Milliseconds, such as "50 ms" or "33.333333333333336 ms".
    public var description: String {
        let ms = milliseconds
        return ms == ms.rounded() ? "\(Int64(ms)) ms" : "\(ms) ms"
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }

    private static func reduced(_ num: Int128, _ den: Int128) -> FrameDuration {
        var (x, y) = (num, den)
        while y != 0 { (x, y) = (y, x % y) }
        let g = x == 0 ? 1 : x
        return FrameDuration(numerator: Int64(num / g), denominator: Int64(den / g))
    }
}
