/// One allocation holding a prefix of a file that is still arriving. It never moves or
/// shrinks: when the file outgrows it, `IncrementalByteBuffer` copies into a larger one,
/// and this one lives on until the last reader that took it lets go.
///
/// `@unchecked Sendable` is safe because of how it is written and read: a byte is written
/// once, by the one appender (under the session's lock), before the count that covers it
/// is published under that lock; readers only read below a count they took under the lock,
/// and nothing ever writes there again.
package final class IncrementalByteStorage: @unchecked Sendable {
    /// The first byte.
    package let base: UnsafeMutableRawPointer
    /// Bytes allocated.
    package let capacity: Int

    /// Allocates `capacity` bytes (at least 1).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }
}
