#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex and a condition variable, as Foundation's `NSCondition` (`lock`, `wait`,
/// `signal`, `broadcast`, `unlock`) on the pthread calls themselves, without Foundation.
/// ThreadSanitizer intercepts those calls, so it sees what the lock orders.
package final class ThreadCondition: @unchecked Sendable {
    // @unchecked: the two pointers never change; what they point at is only ever used
    // through the pthread calls, which are safe from any thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// An unlocked mutex with its condition.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the mutex, waiting for it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Gives the mutex back.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Gives the mutex back until signalled (or woken spuriously: callers wait in a loop
    /// over their own condition), then takes it again. Called with the mutex held.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
