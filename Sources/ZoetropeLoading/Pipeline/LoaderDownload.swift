import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fetch of one URL's bytes, shared by every request for it while it runs: the disk
/// cache is read once, the network asked at most once (conditionally when a stale entry
/// has validators), and each distinct `DecodingOptions` among the requests decoded once.
/// Requests join with a token and leave on their own (cancellation); when no request is
/// left and no player made from the stream is alive, the fetch stops. Players asking before
/// the end get an incremental session fed from the bytes as they arrive, once its first
/// frame is in.
///
/// The stages live in extensions: `+Fetch` (cache, queue, request, watch), `+Transfer`
/// (the session's events), `+Finish` (the end, and the decodes).
final class LoaderDownload: TransportReceiver {
    let url: URL
    let key: String
    let context: LoaderContext
    /// The request that started the fetch: its `urlRequest` and modifier make the request.
    let request: ImageRequest
    /// Skip reading the disk cache (`reloadIgnoringCache`).
    let ignoresCache: Bool
    let state: Locked<State>

    struct State {
        var nextToken = 0
        /// Requests that joined and have not been answered or cancelled.
        var live: Set<Int> = []
        /// Tokens cancelled before their request registered its continuation.
        var cancelledEarly: Set<Int> = []
        var bodyWaiters: [Int: CheckedContinuation<FetchedBody, any Error>] = [:]
        var sourceWaiters: [Int: (options: DecodingOptions, continuation: CheckedContinuation<FetchAnswer, any Error>)] = [:]
        /// Players made over `stream`: the fetch goes on while one is alive.
        var players: [WeakPlayer] = []
        /// Streams handed to a request that has not yet made its player.
        var pendingAdoptions = 0
        var outcome: Result<FetchedBody, any Error>?
        /// One decode per distinct options, shared by the requests that ask for them.
        var decodes: [DecodingOptions: Task<AnimatedImage, any Error>] = [:]
        /// The body is complete and being stored: no new stream.
        var completing = false
        /// The fetch holds (or waits for) a place in the loader's download queue.
        var queued = false
        var priority: ImageRequest.Priority
        var task: (any TransportTask)?
        var status = 0
        var headers: [String: String] = [:]
        var expectedLength: Int?
        /// The body while it is in memory.
        var body = Data()
        /// The body once it passed `diskStreamingThreshold`: on disk from then on.
        var spool: DiskCacheSpool?
        /// Body bytes received, in memory or spooled.
        var received = 0
        /// The response is one the disk cache may keep (a 200, storable, not behind a
        /// temporary redirect): its body may be spooled.
        var spoolable = false
        /// Bytes reserved in the loader's shared budget.
        var reserved = 0
        /// The stale entry a conditional request revalidates.
        var revalidating: DiskCacheEntry?
        var stream: (any IncrementalFrameSource)?
        var streamOptions: DecodingOptions?
        var streamFrames = 0
        var streamRevision = 0
        var streamUnavailable = false
        /// When the request went out.
        var started: ContinuousClock.Instant?
        var responded = false
        var lastActivity = ContinuousClock.now
        var redirects = 0
        /// A redirect past the limit was refused: the response that asked for it is the error.
        var redirectRefused = false
        /// A 302, 303 or 307 without freshness of its own was followed: the final response
        /// is not the original URL's to keep.
        var temporaryRedirect = false
        /// Requests that asked to hear how many bytes have arrived.
        var progressObservers: [Int: @Sendable (LoadingProgress) -> Void] = [:]
        /// Callers handed the body as it arrives (`observeBody`).
        var bodyObservers: [@Sendable (Data) -> Void] = []

        /// The body received so far, from memory or read back from the spool.
        var bodySoFar: Data? { spool.map { $0.contents() } ?? body }

        var isInterested: Bool {
            !live.isEmpty || pendingAdoptions > 0 || players.contains { $0.player != nil }
        }
    }

    struct WeakPlayer {
        weak var player: AnimationPlayer?
    }

    init(request: ImageRequest, context: LoaderContext, ignoresCache: Bool) {
        url = request.url
        key = url.absoluteString
        self.request = request
        self.context = context
        self.ignoresCache = ignoresCache
        state = Locked(State(priority: request.priority))
    }

    // MARK: Requests

    /// A token for one more request at `priority`, or nil when this fetch is over (start a
    /// new one). A more urgent request raises the fetch's place in the queue.
    func join(priority: ImageRequest.Priority) -> Int? {
        let (token, raised, task) = state.withLock { s -> (Int?, Bool, (any TransportTask)?) in
            guard s.outcome == nil else { return (nil, false, nil) }
            s.nextToken += 1
            s.live.insert(s.nextToken)
            let raised = priority > s.priority
            if raised { s.priority = priority }
            return (s.nextToken, raised, s.task)
        }
        if raised {
            context.queue.raise(ObjectIdentifier(self), to: priority)
            task?.priority = priority.sessionPriority
        }
        return token
    }

    /// Moves the fetch to `priority`, up or down: its place in the queue while it waits,
    /// the transfer's priority while it runs.
    func setPriority(_ priority: ImageRequest.Priority) {
        let (open, task) = state.withLock { s -> (Bool, (any TransportTask)?) in
            guard s.outcome == nil else { return (false, nil) }
            s.priority = priority
            return (true, s.task)
        }
        guard open else { return }
        context.queue.move(ObjectIdentifier(self), to: priority)
        task?.priority = priority.sessionPriority
    }

    /// Calls `observer` as the body arrives, until request `token` is answered or cancelled.
    func observeProgress(token: Int, _ observer: @escaping @Sendable (LoadingProgress) -> Void) {
        state.withLock { s in
            if s.live.contains(token) { s.progressObservers[token] = observer }
        }
    }

    /// Starts the fetch (once, by whoever created it).
    func start() {
        Task.detached(priority: request.priority.taskPriority) { [self] in await run() }
    }

    /// The decoded image at `options`, or the fetch's error; `CancellationError` when the
    /// calling task is cancelled (the fetch goes on for the other requests).
    func image(token: Int, options: DecodingOptions, priority: ImageRequest.Priority) async throws -> AnimatedImage {
        let body = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FetchedBody, any Error>) in
                let answer = state.withLock { s -> Result<FetchedBody, any Error>? in
                    if s.cancelledEarly.remove(token) != nil { return .failure(CancellationError()) }
                    if let outcome = s.outcome {
                        s.live.remove(token)
                        return outcome
                    }
                    s.bodyWaiters[token] = continuation
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            cancel(token)
        }
        try Task.checkCancellation()
        return try await decoded(body, options: options, priority: priority)
    }

    /// The whole image, or the stream once its first frame is in (for the options the
    /// stream was opened with); as `image(token:options:priority:)` otherwise.
    func source(token: Int, options: DecodingOptions, priority: ImageRequest.Priority) async throws -> LoadedSource {
        let answer = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FetchAnswer, any Error>) in
                let answer = state.withLock { s -> Result<FetchAnswer, any Error>? in
                    if s.cancelledEarly.remove(token) != nil { return .failure(CancellationError()) }
                    if let outcome = s.outcome {
                        s.live.remove(token)
                        return outcome.map { .body($0) }
                    }
                    if s.stream == nil, !s.completing, s.received > 0 { openStream(&s, options: options) }
                    if let stream = s.stream, s.streamOptions == options, s.streamFrames > 0, !s.streamUnavailable {
                        s.live.remove(token)
                        s.pendingAdoptions += 1
                        return .success(.stream(stream))
                    }
                    s.sourceWaiters[token] = (options, continuation)
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            cancel(token)
        }
        switch answer {
        case .stream(let stream): return .stream(stream)
        case .body(let body):
            try Task.checkCancellation()
            return .image(try await decoded(body, options: options, priority: priority))
        }
    }

    /// Hands `observer` the body received so far, then each piece as it arrives, in order;
    /// a body from the disk cache comes in one piece. Called under the fetch's lock: the
    /// observer must not call back into the loader.
    func observeBody(_ observer: @escaping @Sendable (Data) -> Void) {
        state.withLock { s in
            if let sofar = s.bodySoFar, !sofar.isEmpty { observer(sofar) }
            s.bodyObservers.append(observer)
        }
    }

    func deliver(_ body: Data) {
        state.withLock { s in for observer in s.bodyObservers { observer(body) } }
    }

    /// Keeps the fetch going while `player` (made over the stream) is alive.
    func adopt(_ player: AnimationPlayer) {
        state.withLock { s in
            s.pendingAdoptions -= 1
            s.players.append(WeakPlayer(player: player))
        }
    }

    private func cancel(_ token: Int) {
        let (body, source, abandoned) = state.withLock { s in
            let body = s.bodyWaiters.removeValue(forKey: token)
            let source = s.sourceWaiters.removeValue(forKey: token)?.continuation
            s.progressObservers[token] = nil
            if s.live.remove(token) != nil, body == nil, source == nil { s.cancelledEarly.insert(token) }
            return (body, source, s.outcome == nil && !s.isInterested)
        }
        body?.resume(throwing: CancellationError())
        source?.resume(throwing: CancellationError())
        if abandoned { finish(.failure(CancellationError())) }
    }
}

/// The bytes a fetch ends with, and whether they came from the disk cache (an entry that
/// does not decode is then removed, so it is not served again).
struct FetchedBody: Sendable {
    var data: Data
    var fromDisk: Bool
}

/// What a player request waits for: the stream, or the whole body.
enum FetchAnswer: Sendable {
    case stream(any IncrementalFrameSource)
    case body(FetchedBody)
}
