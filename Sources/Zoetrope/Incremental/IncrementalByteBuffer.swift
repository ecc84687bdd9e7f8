/// The bytes of a file that is still arriving, held once: appending copies the new bytes
/// in (amortised O(N) for N bytes, the capacity doubling when full), and a reader takes a
/// `prefix` that later appends leave untouched.
package struct IncrementalByteBuffer: Sendable {
    /// The current allocation.
    package private(set) var storage: IncrementalByteStorage
    /// Bytes appended so far.
    package private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes.
    package init(capacity: Int = 4096) {
        storage = IncrementalByteStorage(capacity: capacity)
    }

    /// Bytes allocated (what the buffer costs).
    package var capacity: Int { storage.capacity }

    /// Adds `bytes` at the end. Only bytes past `count` are written, so a prefix a reader
    /// took stays valid; when the allocation is full, a new one twice as large (or as large
    /// as needed) receives a copy, and the old one is freed when its last reader lets go.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if needed > storage.capacity {
            let (doubled, overflow) = storage.capacity.multipliedReportingOverflow(by: 2)
            move(toCapacity: max(needed, overflow ? needed : doubled))
        }
        (storage.base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count = needed
    }

    /// Makes room for `capacity` bytes in all (nothing when there is already room), so that
    /// appending up to there neither copies nor allocates.
    package mutating func reserveCapacity(_ capacity: Int) {
        if capacity > storage.capacity { move(toCapacity: capacity) }
    }

    /// A new allocation of `capacity` bytes receives a copy; the old one is freed when its
    /// last reader lets go.
    private mutating func move(toCapacity capacity: Int) {
        let grown = IncrementalByteStorage(capacity: capacity)
        grown.base.copyMemory(from: storage.base, byteCount: count)
        storage = grown
    }

    /// The bytes so far, for a reader to use after letting go of the lock.
    package var prefix: IncrementalBytePrefix { IncrementalBytePrefix(storage: storage, count: count) }

    /// Runs `body` over the bytes so far.
    package func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try prefix.withBytes(body)
    }
}
