import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loader's `URLSession`, with Foundation's own caching off (the loader keeps its own
/// caches, which work the same on every platform: on Linux `URLSession` never fills
/// `URLCache`), and the delegate that hands each task's events to its download.
final class LoaderNetwork: LoaderTransport {
    let session: URLSession
    let router: LoaderSessionDelegate

    /// A session over a copy of `base` (the platform's default when nil).
    init(base: URLSessionConfiguration?, timeout: Duration, deadline: Duration) {
        let configuration = (base?.copy() as? URLSessionConfiguration) ?? URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Backstops only: the download's own watch fails a stalled or endless transfer first.
        configuration.timeoutIntervalForRequest = transportBackstop(timeout).secondsValue
        configuration.timeoutIntervalForResource = transportBackstop(deadline).secondsValue
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "zoetrope.loader"
        router = LoaderSessionDelegate()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    func start(_ request: URLRequest, for receiver: any TransportReceiver) -> any TransportTask {
        let task = session.dataTask(with: request)
        router.register(task, receiver)
        return task
    }

    deinit { session.invalidateAndCancel() }
}
