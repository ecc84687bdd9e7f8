import Testing
@testable import Zoetrope

/// The growing buffer of an incremental session: appends past the capacity move the bytes
/// to a larger allocation (doubling), a reservation moves them once, and a prefix a reader
/// holds keeps its bytes either way.
@Suite struct IncrementalByteBufferTests {
    static func append(_ buffer: inout IncrementalByteBuffer, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer.append($0) }
    }

    @Test func aReservationHoldsTheWholeFileWithoutMovingAgain() {
        var buffer = IncrementalByteBuffer(capacity: 16)
        Self.append(&buffer, [1, 2, 3])
        let before = buffer.prefix
        buffer.reserveCapacity(10_000)
        #expect(buffer.capacity == 10_000)
        let base = buffer.storage.base
        for k in 0..<100 { Self.append(&buffer, [UInt8](repeating: UInt8(k), count: 99)) }
        #expect(buffer.count == 3 + 9_900)
        #expect(buffer.storage.base == base, "appending inside the reservation never moves the bytes")
        #expect(buffer.capacity == 10_000)
        // The prefix taken before the move still reads its three bytes.
        #expect(before.withBytes { Array($0) } == [1, 2, 3])
        #expect(buffer.withBytes { Array($0.prefix(4)) } == [1, 2, 3, 0])
        // Past the reservation the buffer grows as before.
        Self.append(&buffer, [UInt8](repeating: 7, count: 200))
        #expect(buffer.capacity == 20_000)
        #expect(buffer.withBytes { $0.last } == 7)
    }

    @Test func aSmallerReservationChangesNothing() {
        var buffer = IncrementalByteBuffer(capacity: 4096)
        Self.append(&buffer, [9])
        let base = buffer.storage.base
        buffer.reserveCapacity(100)
        #expect(buffer.capacity == 4096 && buffer.storage.base == base)
    }

    @Test func withoutAReservationAppendsDouble() {
        var buffer = IncrementalByteBuffer(capacity: 16)
        for _ in 0..<5 { Self.append(&buffer, [UInt8](repeating: 1, count: 10)) }
        #expect(buffer.capacity == 64)
    }
}
