#if canImport(CCurl)
import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on `CurlTransport`: what the loader holds to resume, cancel and rank it.
/// Its exchanges with the server (one per redirect) live on `CurlLoop`'s thread.
final class CurlTask: TransportTask {
    let request: URLRequest
    let receiver: any TransportReceiver
    let transport: CurlTransport
    private let state = Locked(State())

    private struct State {
        var resumed = false
        var cancelled = false
        var priority: Float = 0.5
    }

    init(request: URLRequest, receiver: any TransportReceiver, transport: CurlTransport) {
        self.request = request
        self.receiver = receiver
        self.transport = transport
    }

    func resume() {
        let first = state.withLock { s in
            defer { s.resumed = true }
            return !s.resumed
        }
        if first { CurlLoop.shared.start(self) }
    }

    func cancel() {
        let resumed = state.withLock { s in
            defer { s.cancelled = true }
            return s.resumed && !s.cancelled
        }
        if resumed { CurlLoop.shared.stop(self) }
    }

    /// True once `cancel()` was called: the exchange reads no more.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Kept for the loader's bookkeeping: its own queue orders downloads before they start.
    var priority: Float {
        get { state.withLock { $0.priority } }
        set { state.withLock { $0.priority = newValue } }
    }
}
#endif
