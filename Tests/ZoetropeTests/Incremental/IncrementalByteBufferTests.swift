import Testing

@testable import Zoetrope

/// The growing buffer of an incremental session: it reserves address space and grows in
/// place (the bytes never move, the capacity stays within a quarter of the count), moves
/// once past its reservation, and lives on the heap and doubles without one; a prefix a
/// reader holds keeps its bytes in every case.
@Suite struct IncrementalByteBufferTests {
    static let page = IncrementalByteStorage.pageSize

    static func append(_ buffer: inout IncrementalByteBuffer, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer.append($0) }
    }

    @Test func withoutAHintTheBytesGrowInPlace() {
        var buffer = IncrementalByteBuffer()
        #expect(buffer.storage.grows, "this system has mmap")
        let base = buffer.storage.base
        #expect(buffer.capacity == Self.page)
        Self.append(&buffer, [1, 2, 3])
        let before = buffer.prefix
        var expected: [UInt8] = [1, 2, 3]
        for k in 0..<2_000 {
            let piece = [UInt8](repeating: UInt8(truncatingIfNeeded: k), count: 4096)
            Self.append(&buffer, piece)
            expected += piece
        }
        #expect(buffer.storage.base == base, "growing inside the reservation never moves the bytes")
        #expect(buffer.count == expected.count)
        #expect(buffer.withBytes { Array($0) } == expected)
        #expect(before.withBytes { Array($0) } == [1, 2, 3])
        // Committed in whole pages, at most a quarter (and a page) more than the bytes.
        #expect(buffer.capacity % Self.page == 0)
        #expect(buffer.capacity >= buffer.count && buffer.capacity <= buffer.count + buffer.count / 4 + Self.page)
    }

    @Test func aHintCommitsWholePagesWithoutMoving() {
        var buffer = IncrementalByteBuffer(capacity: 16)
        Self.append(&buffer, [1, 2, 3])
        let base = buffer.storage.base
        buffer.reserveCapacity(10_000)
        #expect(buffer.capacity == (10_000 + Self.page - 1) / Self.page * Self.page)
        for k in 0..<100 { Self.append(&buffer, [UInt8](repeating: UInt8(k), count: 99)) }
        #expect(buffer.storage.base == base)
        #expect(buffer.withBytes { Array($0.prefix(4)) } == [1, 2, 3, 0])
        // A smaller hint changes nothing, and one past the address space is ignored.
        let capacity = buffer.capacity
        buffer.reserveCapacity(100)
        buffer.reserveCapacity(.max)
        #expect(buffer.capacity == capacity && buffer.storage.base == base)
    }

    @Test func pastItsReservationTheBufferMovesOnceToOneTwiceAsLarge() {
        var buffer = IncrementalByteBuffer(capacity: 1, reservation: 2 * Self.page)
        #expect(buffer.storage.reservedByteCount == 2 * Self.page)
        Self.append(&buffer, [UInt8](repeating: 5, count: 2 * Self.page))
        let first = buffer.storage.base
        let before = buffer.prefix
        Self.append(&buffer, [6])
        #expect(buffer.storage.base != first)
        #expect(buffer.storage.reservedByteCount == 4 * Self.page)
        #expect(buffer.withBytes { Array($0) } == [UInt8](repeating: 5, count: 2 * Self.page) + [6])
        // The reader that took the old storage still reads it.
        #expect(before.withBytes { $0.count == 2 * Self.page && $0.allSatisfy { $0 == 5 } })
        let second = buffer.storage.base
        Self.append(&buffer, [UInt8](repeating: 7, count: Self.page))
        #expect(buffer.storage.base == second)
    }

    @Test func onTheHeapAppendsDoubleAndAHintMovesOnce() {
        var buffer = IncrementalByteBuffer(capacity: 16, reservation: nil)
        #expect(!buffer.storage.grows)
        for _ in 0..<5 { Self.append(&buffer, [UInt8](repeating: 1, count: 10)) }
        #expect(buffer.capacity == 64)
        let before = buffer.prefix
        buffer.reserveCapacity(10_000)
        #expect(buffer.capacity == 10_000 && !buffer.storage.grows)
        let base = buffer.storage.base
        for _ in 0..<99 { Self.append(&buffer, [UInt8](repeating: 2, count: 100)) }
        #expect(buffer.storage.base == base)
        #expect(before.withBytes { $0.count == 50 && $0.allSatisfy { $0 == 1 } })
        Self.append(&buffer, [UInt8](repeating: 3, count: 100))
        #expect(buffer.capacity == 20_000)
        #expect(buffer.withBytes { $0.last } == 3)
    }
}
