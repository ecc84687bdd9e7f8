/// How much of an image's response has arrived: what `AnimatedImageLoader.image(for:progress:)`
/// reports as bytes come in.
public struct LoadingProgress: Hashable, Sendable {
    /// Body bytes received so far.
    public var receivedBytes: Int
    /// The body's announced length (`Content-Length`), when the server gave one.
    public var expectedBytes: Int?

    /// A progress of `receivedBytes` out of `expectedBytes`.
    public init(receivedBytes: Int, expectedBytes: Int?) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// The share received, 0 to 1, when the length is known.
    public var fraction: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
