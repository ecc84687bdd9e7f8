#if canImport(CCurl)
import CCurl
import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The process's one libcurl multi handle and the thread that drives it: every
/// `CurlTransport` task's exchanges run here, and their receivers hear their events here,
/// one at a time. Other threads only post starts and stops and wake the thread.
final class CurlLoop: @unchecked Sendable {
    // Safe to share: `multi` and `byHandle` are used only on the loop's thread (`run`);
    // `inbox` is locked; `curl_multi_wakeup` may be called from any thread.
    static let shared = CurlLoop()

    private let multi: UnsafeMutableRawPointer
    /// The running exchanges, by easy handle (libcurl names a finished one by its handle).
    private var byHandle: [UnsafeMutableRawPointer: CurlExchange] = [:]
    private let inbox = Locked(Inbox())

    private struct Inbox {
        var starting: [CurlTask] = []
        var stopping: [CurlTask] = []
    }

    private init() {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard let multi = curl_multi_init() else { fatalError("libcurl could not make a multi handle") }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.name = "zoetrope.curl"
        thread.start()
    }

    /// Starts `task` on the loop's thread.
    func start(_ task: CurlTask) {
        inbox.withLock { $0.starting.append(task) }
        curl_multi_wakeup(multi)
    }

    /// Stops `task`; its receiver hears `completed` with `URLError.cancelled`.
    func stop(_ task: CurlTask) {
        inbox.withLock { $0.stopping.append(task) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            let (starting, stopping) = inbox.withLock { inbox in
                defer { inbox = Inbox() }
                return (inbox.starting, inbox.stopping)
            }
            for task in starting { begin(task, url: task.request.url, redirects: 0) }
            for task in stopping {
                // A task has one exchange at a time, among at most the loader's concurrent downloads.
                if let exchange = byHandle.values.first(where: { $0.task === task }) {
                    end(exchange, result: CURLE_ABORTED_BY_CALLBACK)
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var done: [(UnsafeMutableRawPointer, CURLcode)] = []
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                    done.append((easy, zcurl_message_result(message)))
                }
            }
            for (easy, result) in done {
                if let exchange = byHandle[easy] { end(exchange, result: result) }
            }
            var ready: Int32 = 0
            curl_multi_poll(multi, nil, 0, 1000, &ready)
        }
    }

    /// A new exchange for `task` with `url`: the first request, or a redirect's.
    private func begin(_ task: CurlTask, url: URL?, redirects: Int) {
        if task.isCancelled {
            task.receiver.completed(error: URLError(.cancelled), response: nil)
            return
        }
        let exchange: CurlExchange
        do {
            exchange = try CurlExchange(task: task, url: url, redirects: redirects)
        } catch {
            task.receiver.completed(error: error, response: nil)
            return
        }
        byHandle[exchange.easy] = exchange
        curl_multi_add_handle(multi, exchange.easy)
    }

    /// The exchange is over: its task follows a redirect with a new exchange, or its
    /// receiver hears how it ended.
    private func end(_ exchange: CurlExchange, result: CURLcode) {
        byHandle[exchange.easy] = nil
        curl_multi_remove_handle(multi, exchange.easy)
        let task = exchange.task
        if let next = exchange.redirect, !task.isCancelled {
            begin(task, url: next, redirects: exchange.redirects + 1)
            return
        }
        let (error, response) = exchange.outcome(result)
        task.receiver.completed(error: error, response: response)
    }
}
#endif
