@testable import Zoetrope

/// What one input did: how far it got, the typed error that stopped it (if any), and a
/// `problem` when it broke a rule (an error that is not an `AnimatedImageError`, a buffer of
/// the wrong shape, an out-of-range frame that decoded). A trap never gets here: it ends
/// the process, which is what the fuzzer and the test runner report.
public struct FuzzOutcome: Sendable, CustomStringConvertible {
    /// Whether a frame source (or the parser's result) was made.
    public var opened = false
    /// The frame count `info` reported (0 when not opened).
    public var frameCount = 0
    /// Frames that decoded without an error, the seek included.
    public var framesDecoded = 0
    /// The first `AnimatedImageError` seen, if any.
    public var firstError: AnimatedImageError?
    /// A broken rule; nil when the input was handled as the library promises.
    public var problem: String?

    /// Creates an empty outcome.
    public init() {}

    /// Whether the input returned or threw only `AnimatedImageError`s, with well-formed frames.
    public var isAcceptable: Bool { problem == nil }

    /// One line for a log.
    public var description: String {
        var parts = ["opened: \(opened)", "frames: \(framesDecoded)/\(frameCount)"]
        if let firstError { parts.append("first error: \(firstError)") }
        if let problem { parts.append("PROBLEM: \(problem)") }
        return parts.joined(separator: ", ")
    }
}
