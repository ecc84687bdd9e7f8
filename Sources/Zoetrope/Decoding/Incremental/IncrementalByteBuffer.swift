/// The bytes of a file that is still arriving, held once: appending copies the new bytes
/// in (O(N) for N bytes), and a reader takes a `prefix` that later appends leave untouched.
///
/// Where the system has `mmap`, the buffer reserves address space up front
/// (`defaultReservation`) and commits pages as bytes arrive, so a file of unknown length
/// grows in place: no copy and no second allocation to fill, as if its length had been
/// given to `reserveCapacity(_:)`. Elsewhere, the capacity doubles when full.
package struct IncrementalByteBuffer: Sendable {
    /// The current storage.
    package private(set) var storage: IncrementalByteStorage
    /// Bytes appended so far.
    package private(set) var count = 0
    /// Bytes usable without moving: committed pages of a reservation, or the heap
    /// allocation. What the buffer costs.
    package private(set) var capacity: Int

    /// The address space a buffer reserves: files up to this size arrive without a copy.
    /// It costs no memory (pages count once committed).
    package static let defaultReservation = Int.bitWidth == 64 ? 1 << 32 : 1 << 26

    /// Whether the buffer reserves address space (else it lives on the heap only).
    private let reserves: Bool

    /// An empty buffer with room for `capacity` bytes (a whole number of pages when
    /// reserved), growing in place up to `reservation` bytes; with a nil `reservation`, a
    /// heap allocation that doubles when full.
    package init(capacity: Int = 4096, reservation: Int? = defaultReservation) {
        reserves = reservation != nil
        (storage, self.capacity) = Self.makeStorage(
            committing: capacity, reserving: reservation.map { max(capacity, $0) },
            heap: capacity)!
    }

    /// A reservation of `reserving` bytes with `committing` bytes usable, else (when
    /// `heap` is given) a heap allocation of `heap` bytes, else nil.
    private static func makeStorage(
        committing: Int, reserving: Int?,
        heap: Int?
    ) -> (IncrementalByteStorage, capacity: Int)? {
        if let reserving, let reserved = IncrementalByteStorage(reserving: reserving) {
            let committed = IncrementalByteStorage.pageRounded(committing)
            if reserved.commit(from: 0, to: committed) { return (reserved, committed) }
        }
        guard let heap else { return nil }
        let allocated = IncrementalByteStorage(capacity: heap)
        return (allocated, allocated.reservedByteCount)
    }

    /// Adds `bytes` at the end. Only bytes past `count` are written, so a prefix a reader
    /// took stays valid.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let needed = count + bytes.count
        if needed > capacity { grow(toHold: needed) }
        (storage.base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count = needed
    }

    /// Makes room for `needed` bytes: in place when the reservation has room (a quarter
    /// more at a time, so a growing file takes few system calls; pages not yet written cost
    /// nothing), else in a new storage that receives a copy, with a reservation twice as
    /// large or (on the heap) twice the capacity.
    private mutating func grow(toHold needed: Int) {
        if storage.grows {
            let step = IncrementalByteStorage.pageRounded(max(needed, capacity + capacity / 4))
            let target = min(storage.reservedByteCount, step)
            if target >= needed, storage.commit(from: capacity, to: target) {
                capacity = target
                return
            }
        }
        let reservation = storage.reservedByteCount.multipliedReportingOverflow(by: 2)
        let doubled = capacity.multipliedReportingOverflow(by: 2)
        move(
            to: Self.makeStorage(
                committing: needed,
                reserving: reserves ? max(needed, reservation.overflow ? needed : reservation.partialValue) : nil,
                heap: max(needed, doubled.overflow ? needed : doubled.partialValue))!)
    }

    /// Makes room for `capacity` bytes in all (nothing when there is already room), so that
    /// appending up to there neither copies nor allocates. A hint the system cannot reserve
    /// (larger than its address space) is ignored where the buffer can grow in place.
    package mutating func reserveCapacity(_ capacity: Int) {
        guard capacity > self.capacity else { return }
        if storage.grows {
            let target = IncrementalByteStorage.pageRounded(capacity)
            if storage.commit(from: self.capacity, to: target) {
                self.capacity = target
                return
            }
        }
        let reservation = reserves ? max(capacity, Self.defaultReservation) : nil
        guard
            let grown = Self.makeStorage(
                committing: capacity, reserving: reservation,
                heap: storage.grows ? nil : capacity)
        else { return }
        move(to: grown)
    }

    /// `grown` receives a copy of the bytes; the old storage is freed when its last reader
    /// lets go.
    private mutating func move(to grown: (IncrementalByteStorage, capacity: Int)) {
        grown.0.base.copyMemory(from: storage.base, byteCount: count)
        (storage, capacity) = grown
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
