import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Zoetrope

/// A real HTTP server on 127.0.0.1 (an ephemeral port) for loading tests: it answers every
/// GET with `body` as `200 OK`, but holds each answer until `release()` when made with
/// `holding: true`, so a test can act while a download is under way. One thread accepts and
/// serves connections one at a time until `close()`.
public final class LoopbackHTTPServer: Sendable {
    private let listener: Int32
    /// The port it listens on.
    public let port: Int
    private let body: Data
    private let state: Locked<(released: Bool, requests: Int, closed: Bool)>

    public init(body: Data, holding: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 8) == 0 else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        self.body = body
        state = Locked((released: !holding, requests: 0, closed: false))
        Thread.detachNewThread { [self] in serve() }
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String = "/image") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Requests whose head has arrived.
    public var requestsReceived: Int { state.withLock { $0.requests } }

    /// Lets held answers (and every later one) go.
    public func release() { state.withLock { $0.released = true } }

    /// Stops accepting; a connection being served is finished first.
    public func close() {
        state.withLock { $0.closed = true }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while !state.withLock({ $0.closed }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { break }
            handle(connection)
            Glibc.close(connection)
        }
        Glibc.close(listener)
    }

    private func handle(_ connection: Int32) {
        // Read the request head (this server needs nothing from it).
        var head = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let n = recv(connection, &chunk, chunk.count, 0)
            guard n > 0 else { return }
            head += chunk[0..<n]
            if head.count > 65536 { return }
        }
        state.withLock { $0.requests += 1 }
        // Hold the answer: a bound on a hang only (a released or closed server goes at once).
        let clock = ContinuousClock(), deadline = clock.now + .seconds(120)
        while !state.withLock({ $0.released || $0.closed }), clock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let response = Data("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        response.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = send(connection, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }   // the client went away (a cancelled download)
                sent += n
            }
        }
    }
}
