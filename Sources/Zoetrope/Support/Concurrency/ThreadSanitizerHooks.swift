#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ThreadSanitizer's annotation entry points, found at run time: present only when the
/// process was built with `-sanitize=thread`, absent (and never called) otherwise.
enum ThreadSanitizerHooks {
    private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    // Addresses as integers, so that they are plain Sendable values.
    private static let acquireAddress: Int = lookup("__tsan_acquire")
    private static let releaseAddress: Int = lookup("__tsan_release")

    private static func lookup(_ name: String) -> Int {
        #if canImport(Glibc)
        let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #else
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT on Darwin
        #endif
        guard let symbol = dlsym(handle, name) else { return 0 }
        return Int(bitPattern: symbol)
    }

    /// Marks entry into the critical section guarded by `lock`.
    @inline(__always)
    static func acquire(_ lock: AnyObject) { annotate(acquireAddress, lock) }

    /// Marks the exit from the critical section guarded by `lock`.
    @inline(__always)
    static func release(_ lock: AnyObject) { annotate(releaseAddress, lock) }

    /// Calls the annotation at `address` (0 when the sanitizer is absent) with `lock`'s address.
    @inline(__always)
    private static func annotate(_ address: Int, _ lock: AnyObject) {
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        let call = unsafeBitCast(pointer, to: Annotation.self)
        call(Unmanaged.passUnretained(lock).toOpaque())
    }
}
