/// The first `count` bytes of an `IncrementalByteBuffer`, taken under the session's lock
/// and read after it: later appends never change them, and the storage stays alive while
/// this value does.
package struct IncrementalBytePrefix: Sendable {
    /// Where the bytes live.
    package let storage: IncrementalByteStorage
    /// How many of them belong to the prefix.
    package let count: Int

    /// Runs `body` over the bytes.
    package func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(storage) {} }
        return try body(UnsafeRawBufferPointer(start: storage.base, count: count))
    }
}
