#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory holding a prefix of a file that is still arriving. It never moves or shrinks:
/// where the system has `mmap`, it is a reservation of address space whose pages are made
/// usable (`commit`) as bytes arrive, so a file grows in place up to the reservation with
/// no copy; elsewhere, or when the reservation fails, it is one heap allocation of fixed
/// size. When the file outgrows it, `IncrementalByteBuffer` copies into a larger one, and
/// this one lives on until the last reader that took it lets go.
///
/// `@unchecked Sendable` is safe because of how it is written and read: a byte is written
/// once, by the one appender (under the session's lock), before the count that covers it
/// is published under that lock; readers only read below a count they took under the lock,
/// and nothing ever writes there again. Committing changes only pages past every count.
package final class IncrementalByteStorage: @unchecked Sendable {
    /// The first byte.
    package let base: UnsafeMutableRawPointer
    /// Bytes this storage can hold without moving: the reservation, or the allocation.
    package let reservedByteCount: Int
    /// Whether `base` is a reservation that `commit` extends in place (else a heap
    /// allocation of fixed size).
    package let grows: Bool

    /// The system's page size: reservations commit whole pages.
    package static let pageSize: Int = {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
        #else
        return 4096
        #endif
    }()

    /// `byteCount` rounded up to whole pages (saturating).
    package static func pageRounded(_ byteCount: Int) -> Int {
        let (sum, overflow) = max(1, byteCount).addingReportingOverflow(pageSize - 1)
        return overflow ? Int.max / pageSize * pageSize : sum / pageSize * pageSize
    }

    /// A heap allocation of `capacity` bytes (at least 1).
    package init(capacity: Int) {
        reservedByteCount = max(1, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: reservedByteCount, alignment: 16)
        grows = false
    }

    /// A reservation of `byteCount` bytes of address space (page rounded) with nothing
    /// usable yet, or nil where the system has no `mmap` or refuses it (an address-space
    /// limit). Reserved pages cost no memory until committed and written.
    package init?(reserving byteCount: Int) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let size = Self.pageRounded(byteCount)
        // PROT_NONE and MAP_NORESERVE: no commit charge until `commit`.
        guard let address = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
            address != MAP_FAILED
        else { return nil }
        base = address
        reservedByteCount = size
        grows = true
        #else
        return nil
        #endif
    }

    /// Whether `capacity` bytes from `base` can be used without moving: a reservation
    /// makes its pages from `committed` up to `capacity` readable and writable. The caller
    /// passes page-rounded counts and never reads or writes past what was committed.
    package func commit(from committed: Int, to capacity: Int) -> Bool {
        guard capacity <= reservedByteCount else { return false }
        guard grows, capacity > committed else { return true }
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return mprotect(base + committed, capacity - committed, PROT_READ | PROT_WRITE) == 0
        #else
        return false
        #endif
    }

    deinit {
        if grows {
            #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            _ = munmap(base, reservedByteCount)
            #endif
        } else {
            base.deallocate()
        }
    }
}
