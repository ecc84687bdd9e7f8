extension NativeThread {
    /// Runs `other` on a new thread named `name` while the calling thread runs `here`, and
    /// returns once both have returned.
    ///
    /// For two pieces of work of a few milliseconds that must both be done before the
    /// caller goes on: a new thread starts in about a tenth of a millisecond, where a
    /// Dispatch queue's pool can take milliseconds to wake a worker and so run both on the
    /// caller. Whatever `other` wrote is visible to the caller when this returns (the join
    /// goes through a mutex, which ThreadSanitizer sees).
    package static func pair(name: String, here: () -> Void, other: @escaping @Sendable () -> Void) {
        let join = Join()
        detach(name: name) {
            other()
            join.finish()
        }
        here()
        join.wait()
    }

    /// The other thread's end, behind a condition.
    private final class Join: @unchecked Sendable {
        // @unchecked: `done` is read and written only with `condition`'s mutex held.
        private let condition = ThreadCondition()
        private var done = false

        func finish() {
            condition.lock()
            done = true
            condition.signal()
            condition.unlock()
        }

        func wait() {
            condition.lock()
            while !done { condition.wait() }
            condition.unlock()
        }
    }
}
