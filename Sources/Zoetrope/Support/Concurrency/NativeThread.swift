import Dispatch

#if canImport(Darwin)
import Darwin
import Foundation
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(Glibc) || canImport(Musl)
// GNU extensions the C library exports but its Swift module does not declare
// (they sit behind _GNU_SOURCE); glibc 2.30+ and musl 1.2.2+ have both.
@_silgen_name("gettid") private func systemThreadID() -> pid_t
@_silgen_name("pthread_setname_np") private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
#endif

/// The core's own threads, without Foundation's `Thread` on Linux (which would load all of
/// Foundation, ICU included, into every process using the core): a detached, named pthread.
/// On Apple platforms, where Foundation is part of the system anyway, it is `Thread`.
package enum NativeThread {
    /// Starts `body` on a new detached thread named `name` (at most 15 bytes are kept on
    /// Linux, the kernel's limit). Should the system refuse a thread, `body` runs on a
    /// Dispatch global queue instead, so that whoever waits for it is not left waiting.
    package static func detach(name: String, _ body: @escaping @Sendable () -> Void) {
        #if canImport(Darwin)
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
        #else
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Start>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, start.toOpaque())
        pthread_attr_destroy(&attributes)
        if result != 0 {
            start.release()
            DispatchQueue.global().async(execute: body)
        }
        #endif
    }

    /// Whether the caller runs on the process's main thread (`Thread.isMainThread` on Apple
    /// platforms; on Linux, the thread whose id is the process id, Foundation's own test).
    package static var isMain: Bool {
        #if canImport(Darwin)
        return Thread.isMainThread
        #else
        return systemThreadID() == getpid()
        #endif
    }

    #if !canImport(Darwin)
    /// What a new thread runs: names itself, then runs the body.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            // The kernel keeps 15 bytes and a NUL; a longer name would be refused whole.
            var bytes = Array(name.utf8.prefix(15)).map { CChar(bitPattern: $0) }
            bytes.append(0)
            _ = setThreadName(pthread_self(), bytes)
            body()
        }
    }
    #endif
}
