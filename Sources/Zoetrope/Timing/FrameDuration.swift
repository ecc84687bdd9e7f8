/// An exact duration, as a reduced fraction of a second.
///
/// Formats store delays in different units (GIF centiseconds, APNG `num/den` seconds,
/// WebP milliseconds, AVIF media-timescale ticks). Keeping them as exact fractions means
/// a timeline summed over thousands of frames never drifts.
///
/// No operation traps, whatever a file stores. Results are exact whenever the reduced
/// fraction fits 64-bit numerator and denominator. When it does not (durations whose
/// denominators have a huge least common multiple, such as an APNG whose delays are
/// `1/65535`, `1/65534`, `1/65533` and `1/65531` seconds), the result is the closest
/// fraction that fits among the continued-fraction convergents of the exact value: its
/// error is below 2⁻⁶³ seconds (about 10⁻¹⁹ s, under one attosecond) or 2⁻⁶³ of the
/// value, whichever is larger. A value past
/// `Int64.max` seconds (about 292 billion years) saturates at ``maximum``.
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

    /// The longest duration, `Int64.max` seconds: where sums and products saturate.
    public static let maximum = FrameDuration(numerator: .max, denominator: 1)

    /// Whole milliseconds.
    public static func milliseconds(_ ms: Int64) -> FrameDuration { FrameDuration(numerator: ms, denominator: 1000) }
    /// Whole centiseconds (the GIF unit).
    public static func centiseconds(_ cs: Int64) -> FrameDuration { FrameDuration(numerator: cs, denominator: 100) }
    /// Whole microseconds.
    package static func microseconds(_ us: Int64) -> FrameDuration { FrameDuration(numerator: us, denominator: 1_000_000) }
    /// Whole seconds.
    public static func seconds(_ s: Int64) -> FrameDuration { FrameDuration(numerator: s, denominator: 1) }

    /// Whether this is exactly zero.
    package var isZero: Bool { numerator == 0 }

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

    /// The sum: exact when the reduced result fits 64 bits, else the closest convergent that
    /// fits (error below 2⁻⁶³ s or 2⁻⁶³ of the value), saturating at ``maximum``. Never traps.
    public static func + (lhs: FrameDuration, rhs: FrameDuration) -> FrameDuration {
        let g = gcd(lhs.denominator, rhs.denominator)
        let den = Int128(lhs.denominator / g) * Int128(rhs.denominator)
        let num = Int128(lhs.numerator) * Int128(rhs.denominator / g) + Int128(rhs.numerator) * Int128(lhs.denominator / g)
        return reduced(num, den)
    }

    /// The difference, clamped at zero: exact when the reduced result fits 64 bits, else
    /// approximated like `+`. Never traps.
    public static func - (lhs: FrameDuration, rhs: FrameDuration) -> FrameDuration {
        guard rhs < lhs else { return .zero }
        let g = gcd(lhs.denominator, rhs.denominator)
        let den = Int128(lhs.denominator / g) * Int128(rhs.denominator)
        let num = Int128(lhs.numerator) * Int128(rhs.denominator / g) - Int128(rhs.numerator) * Int128(lhs.denominator / g)
        return reduced(num, den)
    }

    /// The product with a whole number (a negative factor counts as zero): exact when the
    /// reduced result fits 64 bits, else approximated and saturated like `+`. Never traps.
    public static func * (lhs: FrameDuration, rhs: Int64) -> FrameDuration {
        reduced(Int128(lhs.numerator) * Int128(max(rhs, 0)), Int128(lhs.denominator))
    }

    /// Milliseconds, such as "50 ms" or "33.333333333333336 ms" (past `Int64.max` ms, in
    /// floating-point notation, such as "9.223372036854776e+21 ms").
    public var description: String {
        let ms = milliseconds
        if ms == ms.rounded(), let whole = Int64(exactly: ms) { return "\(whole) ms" }
        return "\(ms) ms"
    }

    package static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }

    /// `num / den` (both non-negative, `den` positive) as a `FrameDuration`: reduced and exact
    /// when it fits, else the last continued-fraction convergent whose terms fit `Int64`,
    /// or ``maximum`` when the whole part alone does not fit.
    static func reduced(_ num: Int128, _ den: Int128) -> FrameDuration {
        guard num > 0, den > 0 else { return .zero }
        var (x, y) = (num, den)
        while y != 0 { (x, y) = (y, x % y) }
        let (n, d) = (num / x, den / x)
        let bound = Int128(Int64.max)
        if n <= bound, d <= bound { return FrameDuration(numerator: Int64(n), denominator: Int64(d)) }
        guard n / d <= bound else { return .maximum }
        // Convergents h/k of n/d: each is the best approximation with a denominator up to k,
        // and |n/d − h/k| < 1/(k·k_next), where k_next is the first denominator past the bound.
        var (h0, k0): (Int128, Int128) = (0, 1)
        var (h1, k1): (Int128, Int128) = (1, 0)
        var (p, q) = (n, d)
        while q != 0 {
            let a = p / q
            // Stop before a term that would not fit: a·h1 + h0 > bound or a·k1 + k0 > bound.
            if h1 > 0, a > (bound - h0) / h1 { break }
            if k1 > 0, a > (bound - k0) / k1 { break }
            (h0, h1) = (h1, a * h1 + h0)
            (k0, k1) = (k1, a * k1 + k0)
            (p, q) = (q, p % q)
        }
        return FrameDuration(numerator: Int64(h1), denominator: Int64(max(k1, 1)))
    }
}
