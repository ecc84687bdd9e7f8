import Foundation

/// What `LoopbackHTTPServer` answers for one request: a status, headers and a body, sent
/// at once or trickled, cut short, or held part way (a stalled server).
public struct LoopbackHTTPResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// Header lines after the status line, in order. `Content-Length` and
    /// `Connection: close` are added unless `contentLength` says otherwise.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data
    /// The `Content-Length` announced: nil announces the body's own length (set
    /// `sendsContentLength` false to send none). A value other than `body.count` is a lying server.
    public var contentLength: Int?
    /// Whether a `Content-Length` header is sent at all.
    public var sendsContentLength = true
    /// Bytes per write of the body.
    public var chunkSize = 64 << 10
    /// Pause after each chunk (a trickle); zero sends as fast as the socket takes it.
    public var chunkDelay: Duration = .zero
    /// Close the connection after this many body bytes (a body cut short).
    public var closeAfter: Int?
    /// Stop after this many body bytes and hold the connection open until `gate` opens
    /// (then send the rest) or, without a gate, until the client goes away (a stalled server).
    public var holdAfter: Int?
    /// What ends a hold; nil holds until the client closes the connection.
    public var gate: LoopbackGate?

    /// A response with `status`, `headers` and `body`.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 200 with `body` and the given headers.
    public static func ok(_ body: Data, headers: [(name: String, value: String)] = []) -> LoopbackHTTPResponse {
        LoopbackHTTPResponse(status: 200, headers: headers, body: body)
    }

    /// A status with a short text body.
    public static func status(_ status: Int, headers: [(name: String, value: String)] = []) -> LoopbackHTTPResponse {
        LoopbackHTTPResponse(status: status, headers: headers, body: Data("status \(status)\n".utf8))
    }

    /// The same response, its body sent `bytes` at a time with `delay` after each piece.
    public func trickled(_ bytes: Int, every delay: Duration) -> LoopbackHTTPResponse {
        var r = self
        r.chunkSize = max(1, bytes)
        r.chunkDelay = delay
        return r
    }
}
