import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one delegate of a loader's `URLSession`: routes each task's events to the download
/// that started it.
final class LoaderSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let downloads = Locked<[Int: any TransportReceiver]>([:])

    func register(_ task: URLSessionTask, _ download: any TransportReceiver) {
        downloads.withLock { $0[task.taskIdentifier] = download }
    }

    private func download(_ task: URLSessionTask) -> (any TransportReceiver)? {
        downloads.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allow = download(dataTask)?.received(response: response) ?? false
        completionHandler(allow ? .allow : .cancel)
        // FoundationNetworking leaves the connection open on `.cancel`: close it, now that
        // the handler has its answer.
        if !allow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let download = download(dataTask), download.received(data: data) else {
            dataTask.cancel()
            return
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Refusing (nil) makes the redirecting response the task's response: the download
        // fails on it. Cancelling here instead would upset FoundationNetworking, which
        // still waits for this handler.
        let follow = download(task)?.redirected(response) ?? false
        completionHandler(follow ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let download = downloads.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        download?.completed(error: error, response: task.response)
    }
}
