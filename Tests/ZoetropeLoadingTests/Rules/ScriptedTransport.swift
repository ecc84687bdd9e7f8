import Foundation
import Zoetrope
import ZoetropeLoading
import ZoetropeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `LoaderTransport` that answers every request from a script, on a serial queue, with no
/// socket: the loader's HTTP rules and bounds tested on their own. It follows redirects as
/// `URLSession` does (asking the receiver first) and records every request it was asked.
final class ScriptedTransport: LoaderTransport {
    /// What the script answers one request with.
    struct Reply: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        /// The body, in the pieces it arrives in.
        var chunks: [Data] = []
        /// How the transfer ends after the body: nil is a clean end.
        var error: URLError?
        /// The body never ends: its last piece (1 KiB of zeros without one) comes again and
        /// again until the receiver refuses it or the task is cancelled.
        var endless = false
        /// After the body the server goes quiet: the transfer waits until it is cancelled.
        var stalls = false

        static func ok(_ body: Data, _ headers: [String: String] = [:]) -> Reply {
            Reply(status: 200, headers: headers, chunks: [body])
        }
    }

    private let script: @Sendable (URLRequest) -> Reply
    private let log = Locked<(requests: [URLRequest], delivered: Int)>(([], 0))

    init(_ script: @escaping @Sendable (URLRequest) -> Reply) {
        self.script = script
    }

    /// Every request asked of the transport, redirects included, in order.
    var requests: [URLRequest] { log.withLock { $0.requests } }
    /// The paths asked for, in order.
    var paths: [String] { requests.map { $0.url?.path ?? "" } }
    /// Body bytes the receivers accepted.
    var deliveredBytes: Int { log.withLock { $0.delivered } }

    func start(_ request: URLRequest, for receiver: any TransportReceiver) -> any TransportTask {
        ScriptedTask(request: request, receiver: receiver, transport: self)
    }

    fileprivate func answer(_ request: URLRequest) -> Reply {
        log.withLock { $0.requests.append(request) }
        return script(request)
    }

    fileprivate func delivered(_ count: Int) { log.withLock { $0.delivered += count } }
}

/// One scripted transfer. Cancelling it ends it with `URLError.cancelled`, as a
/// `URLSessionTask` does.
final class ScriptedTask: TransportTask {
    private struct State {
        var priority: Float = 0.5
        var started = false
        var ended = false
    }

    private let request: URLRequest
    private let receiver: any TransportReceiver
    private let transport: ScriptedTransport
    private let state = Locked(State())

    init(request: URLRequest, receiver: any TransportReceiver, transport: ScriptedTransport) {
        self.request = request
        self.receiver = receiver
        self.transport = transport
    }

    var priority: Float {
        get { state.withLock { $0.priority } }
        set { state.withLock { $0.priority = newValue } }
    }

    func resume() {
        let first = state.withLock { s in
            defer { s.started = true }
            return !s.started
        }
        // A queue of its own: a stalled transfer waits without holding up the others.
        if first { DispatchQueue(label: "zoetrope.scripted-task").async { self.run() } }
    }

    func cancel() {
        DispatchQueue.global().async { self.end(error: URLError(.cancelled), response: nil) }
    }

    private var isOver: Bool { state.withLock { $0.ended } }

    private func end(error: URLError?, response: URLResponse?) {
        let first = state.withLock { s in
            defer { s.ended = true }
            return !s.ended
        }
        if first { receiver.completed(error: error, response: response) }
    }

    private func run() {
        var request = self.request
        while !isOver {
            let reply = transport.answer(request)
            let url = request.url ?? URL(fileURLWithPath: "/")
            var headers = reply.headers
            if headers["Content-Length"] == nil, !reply.endless, !reply.stalls, reply.error == nil {
                headers["Content-Length"] = String(reply.chunks.reduce(0) { $0 + $1.count })
            }
            guard
                let response = HTTPURLResponse(url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: headers)
            else { return end(error: URLError(.badServerResponse), response: nil) }
            if [301, 302, 303, 307, 308].contains(reply.status), let location = reply.headers["Location"],
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            {
                if receiver.redirected(response) {
                    var redirected = request
                    redirected.url = next
                    request = redirected
                    continue
                }
            }
            guard receiver.received(response: response) else { return end(error: URLError(.cancelled), response: response) }
            for chunk in reply.chunks {
                if isOver { return }
                guard receiver.received(data: chunk) else { return end(error: URLError(.cancelled), response: response) }
                transport.delivered(chunk.count)
            }
            if reply.endless {
                // More of the same until the receiver refuses it or the task is cancelled.
                let piece = reply.chunks.last ?? Data(count: 1024)
                while !isOver {
                    guard receiver.received(data: piece) else { return end(error: URLError(.cancelled), response: response) }
                    transport.delivered(piece.count)
                }
                return
            }
            while reply.stalls, !isOver { usleep(1000) }
            return end(error: reply.error, response: response)
        }
    }
}
