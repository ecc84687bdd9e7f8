#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension NativeThread {
    /// Sleeps the calling thread for `duration`, again after an interrupting signal: for the
    /// package's own polling threads, which run outside Swift concurrency.
    package static func sleep(_ duration: Duration) {
        let ns = duration.wholeNanoseconds
        var request = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
