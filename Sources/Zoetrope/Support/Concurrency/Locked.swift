import Synchronization

/// A value behind a `Synchronization.Mutex` that ThreadSanitizer can also see.
///
/// On Linux, `Mutex` waits on a futex that ThreadSanitizer does not intercept, so a
/// sanitized build reports every access made under it as a race (even a two-thread
/// counter). `Locked` tells the sanitizer about each critical section (acquire on entry,
/// release on exit) when the process runs under it, and costs one branch otherwise.
///
/// Every module of the package (codecs, the tool, tests) locks with this, never with a bare
/// `Mutex`, so that the whole suite runs clean under the thread sanitizer.
package final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock around `value`.
    package init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock { value throws -> sending Result in
            ThreadSanitizerHooks.acquire(self)
            defer { ThreadSanitizerHooks.release(self) }
            return try body(&value)
        }
    }
}
