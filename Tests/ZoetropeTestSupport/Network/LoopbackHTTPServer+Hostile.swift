import Foundation
import Zoetrope

/// One connection of a raw route: the script writes what it likes, status line included.
/// Every write and pause ends (false) once the client has gone, the server stopped, or the
/// connection's time bound passed, so that no hostile script outlives its test.
public final class HostileConnection: Sendable {
    private let fd: Int32
    private let stopped: @Sendable () -> Bool
    private let end: ContinuousClock.Instant
    private let written = Locked(0)

    init(fd: Int32, bound: Duration = .seconds(30), stopped: @escaping @Sendable () -> Bool) {
        self.fd = fd
        self.stopped = stopped
        end = .now + bound
        // A client that stops reading must not hold a write for ever: each send gives up
        // after 100 ms and is tried again while the connection is open.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Body and head bytes written so far.
    public var bytesWritten: Int { written.withLock { $0 } }

    /// Whether the client is still there, the server running and the time bound ahead.
    public var isOpen: Bool { !stopped() && ContinuousClock.now < end && !LoopbackHTTPServer.clientClosed(fd) }

    /// Writes `bytes`; false when the connection is over.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        isOpen && LoopbackHTTPServer.send(fd, bytes, retrying: { isOpen }, sent: { n in written.withLock { $0 += n } })
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Waits `duration` in short steps; false when the connection is over meanwhile.
    @discardableResult
    public func pause(_ duration: Duration) -> Bool {
        let until = ContinuousClock.now + duration
        while ContinuousClock.now < until {
            guard isOpen else { return false }
            NativeThread.sleep(min(.milliseconds(10), until - .now))
        }
        return isOpen
    }
}

// The hostile answers the loader's tests need: each writes bytes no honest server would,
// and each is bounded by its connection's time bound.
extension LoopbackHTTPServer {
    /// A 200 whose body never ends: `chunk`-byte pieces of `byte`, sent as fast as the client
    /// reads, with `headers` (no `Content-Length` unless given); `chunked` frames the pieces
    /// with chunked transfer coding.
    public func serveEndless(_ path: String, headers: [String] = [], chunked: Bool = false, chunk: Int = 64 << 10, byte: UInt8 = 0x47) {
        routeRaw(path) { _, connection in
            var head = "HTTP/1.1 200 OK\r\n" + headers.map { $0 + "\r\n" }.joined()
            if chunked { head += "Transfer-Encoding: chunked\r\n" }
            guard connection.write(head + "\r\n") else { return }
            let piece = [UInt8](repeating: byte, count: chunk)
            let framed = chunked ? Array("\(String(chunk, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8) : piece
            while connection.write(framed) {}
        }
    }

    /// A response whose head and body are `head` (the status line and headers, without the
    /// blank line) and `body`, the body written `bytes` at a time with `delay` after each.
    public func serveTrickle(_ path: String, head: String, body: Data, bytes: Int, every delay: Duration) {
        routeRaw(path) { _, connection in
            guard connection.write(head + "\r\n\r\n") else { return }
            var offset = 0
            let all = [UInt8](body)
            while offset < all.count {
                let next = min(all.count, offset + max(1, bytes))
                guard connection.write(Array(all[offset..<next])), connection.pause(delay) else { return }
                offset = next
            }
        }
    }

    /// A head written one byte every `delay`, then `body`: a server slow before the body.
    /// Run it only in a process that may die: if the connection ends before the head does
    /// (its time bound, `stop()`), FoundationNetworking stops the client process.
    public func serveSlowHead(_ path: String, head: String, body: Data, every delay: Duration) {
        routeRaw(path) { _, connection in
            for byte in (head + "\r\n\r\n").utf8 {
                guard connection.write([byte]), connection.pause(delay) else { return }
            }
            connection.write([UInt8](body))
        }
    }

    /// Exactly `bytes` as the whole answer, then the connection closes.
    public func serveRaw(_ path: String, _ bytes: Data) {
        routeRaw(path) { _, connection in connection.write([UInt8](bytes)) }
    }
}
