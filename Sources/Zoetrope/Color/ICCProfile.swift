/// An ICC profile exactly as a file embeds it (decompressed where the format compresses it,
/// as PNG's `iCCP` does).
public struct ICCProfile: Hashable, Sendable {
    /// The profile's bytes.
    public var data: [UInt8]

    /// Wraps a profile's bytes; nothing is checked here.
    public init(data: [UInt8]) {
        self.data = data
    }
}
