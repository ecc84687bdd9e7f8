import Synchronization

/// A thread-safe 0, 1, 2… counter.
final class SequenceCounter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).oldValue }
}
