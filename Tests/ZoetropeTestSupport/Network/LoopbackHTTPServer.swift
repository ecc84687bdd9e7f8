import Foundation
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for loading tests: POSIX sockets, one thread per
/// connection, `Connection: close` after every response. Routes answer by path; the server
/// counts requests per path, keeps their headers (`If-None-Match`, ...) and counts the body
/// bytes it has written, so a test can check what a client asked for and when. It stops
/// when `stop()` is called or the server is released (keep it alive while clients use it:
/// `defer { server.stop() }` does both).
public final class LoopbackHTTPServer: Sendable {
    /// The port the kernel chose.
    public let port: Int
    private let listener: Int32
    private let state = Locked(State())

    private struct State {
        var routes: [String: @Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse] = [:]
        /// Routes that write the raw bytes themselves (LoopbackHTTPServer+Hostile.swift).
        var rawRoutes: [String: (bound: Duration, script: @Sendable (LoopbackHTTPRequest, HostileConnection) -> Void)] = [:]
        var requests: [String: [LoopbackHTTPRequest]] = [:]
        var bodyBytesSent: [String: Int] = [:]
        var bodyCompletedAt: [String: Date] = [:]
        var connections: Set<Int32> = []
        var stopped = false
    }

    /// Binds 127.0.0.1 on a port the kernel chooses and starts accepting.
    public init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServerError("socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw ServerError("bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        // The threads hold the state, not the server, so that dropping the server stops it.
        let state = self.state
        NativeThread.detach(name: "loopback.accept") { Self.acceptLoop(listener: fd, state: state) }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// The URL of `path` on this server (`"a.gif"` or `"/a.gif"`).
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/" + (path.hasPrefix("/") ? String(path.dropFirst()) : path))!
    }

    /// Answers requests for `path` (without its query) with what `handler` returns.
    public func route(_ path: String, _ handler: @escaping @Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse) {
        let key = path.hasPrefix("/") ? path : "/" + path
        state.withLock { $0.routes[key] = handler }
    }

    /// Answers requests for `path` by writing whatever bytes `script` writes to the
    /// connection, status line and headers included: a hostile server. Each connection
    /// ends at the latest `bound` after the request (`HostileConnection`); a script that
    /// waits for the client to give up needs a bound longer than any wait of a busy machine.
    public func routeRaw(
        _ path: String, bound: Duration = .seconds(30),
        _ script: @escaping @Sendable (LoopbackHTTPRequest, HostileConnection) -> Void
    ) {
        let key = path.hasPrefix("/") ? path : "/" + path
        state.withLock { $0.rawRoutes[key] = (bound, script) }
    }

    /// Answers every request for `path` with `response`.
    public func serve(_ path: String, _ response: LoopbackHTTPResponse) {
        route(path) { _ in response }
    }

    /// Requests received for `path` so far.
    public func requestCount(_ path: String) -> Int { requests(path).count }

    /// The requests received for `path`, in order.
    public func requests(_ path: String) -> [LoopbackHTTPRequest] {
        let key = path.hasPrefix("/") ? path : "/" + path
        return state.withLock { $0.requests[key] ?? [] }
    }

    /// Body bytes written for `path` so far, over all its requests.
    public func bodyBytesSent(_ path: String) -> Int {
        let key = path.hasPrefix("/") ? path : "/" + path
        return state.withLock { $0.bodyBytesSent[key] ?? 0 }
    }

    /// Connections open now (a client that gave up has closed its own).
    public var openConnectionCount: Int { state.withLock { $0.connections.count } }

    /// When the last byte of a whole body for `path` was written (the first time), or nil.
    public func bodyCompletedAt(_ path: String) -> Date? {
        let key = path.hasPrefix("/") ? path : "/" + path
        return state.withLock { $0.bodyCompletedAt[key] }
    }

    /// Stops accepting and closes every open connection. Idempotent.
    public func stop() {
        let open = state.withLock { s -> Set<Int32>? in
            if s.stopped { return nil }
            s.stopped = true
            return s.connections
        }
        guard let open else { return }
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func acceptLoop(listener: Int32, state: Locked<State>) {
        while !state.withLock({ $0.stopped }) {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = state.withLock { s -> Bool in
                if s.stopped { return false }
                s.connections.insert(fd)
                return true
            }
            guard admitted else {
                close(fd)
                return
            }
            NativeThread.detach(name: "loopback.conn") {
                serve(connection: fd, state: state)
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
            }
        }
    }

    private static func serve(connection fd: Int32, state: Locked<State>) {
        guard let requestHead = readHead(fd), let request = LoopbackHTTPRequest(head: requestHead) else { return }
        let (handler, raw) = state.withLock { s in
            s.requests[request.path, default: []].append(request)
            return (s.routes[request.path], s.rawRoutes[request.path])
        }
        if let raw {
            let connection = HostileConnection(fd: fd, bound: raw.bound) { state.withLock { $0.stopped } }
            raw.script(request, connection)
            state.withLock { $0.bodyBytesSent[request.path, default: 0] += connection.bytesWritten }
            return
        }
        let response = handler?(request) ?? .status(404)
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.sendsContentLength { head += "Content-Length: \(response.contentLength ?? response.body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        guard send(fd, Array(head.utf8)) else { return }
        if request.method == "HEAD" { return }

        let body = [UInt8](response.body)
        let end = min(body.count, response.closeAfter ?? body.count)
        var offset = 0
        while offset < end {
            if let hold = response.holdAfter, offset >= hold, !(response.gate?.isOpen ?? false) {
                if !waitAtHold(fd, gate: response.gate, state: state) { return }
                continue
            }
            var next = min(end, offset + response.chunkSize)
            if let hold = response.holdAfter, offset < hold, !(response.gate?.isOpen ?? false) { next = min(next, hold) }
            guard send(fd, Array(body[offset..<next])) else { return }
            state.withLock { $0.bodyBytesSent[request.path, default: 0] += next - offset }
            offset = next
            if response.chunkDelay > .zero, offset < end { NativeThread.sleep(response.chunkDelay) }
        }
        if end == body.count {
            let now = Date()
            state.withLock { s in if s.bodyCompletedAt[request.path] == nil { s.bodyCompletedAt[request.path] = now } }
        }
        if let hold = response.holdAfter, hold >= end, response.gate == nil, response.closeAfter == nil {
            _ = waitAtHold(fd, gate: nil, state: state)  // held at the very end: stall until the client leaves
        }
        if response.closeAfter != nil { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Waits until `gate` opens (true) or the client closes the connection or the server
    /// stops (false).
    private static func waitAtHold(_ fd: Int32, gate: LoopbackGate?, state: Locked<State>) -> Bool {
        while true {
            if gate?.isOpen ?? false { return true }
            if state.withLock({ $0.stopped }) || clientClosed(fd) { return false }
            NativeThread.sleep(.milliseconds(5))
        }
    }

    /// Whether the peer has closed its end (a readable socket with nothing to read).
    static func clientClosed(_ fd: Int32) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0 else { return false }
        if pfd.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads up to the blank line that ends a request head (at most 64 KiB).
    private static func readHead(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            bytes += buffer[0..<n]
            if let end = headEnd(bytes) { return String(decoding: bytes[0..<end], as: UTF8.self) }
        }
        return nil
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Writes all of `bytes` (never raising SIGPIPE); false when the peer is gone. A send
    /// that times out (a socket with `SO_SNDTIMEO`) is tried again while `retrying` says so;
    /// `sent` hears each write.
    static func send(
        _ fd: Int32, _ bytes: [UInt8], retrying: () -> Bool = { false }, sent: (Int) -> Void = { _ in }
    ) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let n = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK, retrying() { continue }
            guard n > 0 else { return false }
            offset += n
            sent(n)
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }

    /// Why the server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
