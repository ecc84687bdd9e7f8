/// Why a file's colour declaration is not converted: frames then hold the stored values.
public struct ColorConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line saying what was declared and what is done instead.
    public var reason: String

    /// Creates an error with its reason.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
