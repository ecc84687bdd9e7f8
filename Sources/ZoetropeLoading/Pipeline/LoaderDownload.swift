import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fetch of one URL, shared by every request for it while it runs: the disk cache is
/// read once, the network asked at most once (conditionally when a stale entry has
/// validators), the bytes decoded once. Requests join with a token and leave on their own
/// (cancellation); when no request is left and no player made from the stream is alive,
/// the fetch stops. Players asking before the end get an incremental session fed from the
/// bytes as they arrive, once its first frame is in.
final class LoaderDownload: Sendable {
    let url: URL
    private let key: String
    private let context: LoaderContext
    private let state: Locked<State>

    private struct State {
        var nextToken = 0
        /// Requests that joined and have not been answered or cancelled.
        var live: Set<Int> = []
        /// Tokens cancelled before their request registered its continuation.
        var cancelledEarly: Set<Int> = []
        var imageWaiters: [Int: CheckedContinuation<AnimatedImage, any Error>] = [:]
        var sourceWaiters: [Int: CheckedContinuation<LoadedSource, any Error>] = [:]
        /// Players made over `stream`: the fetch goes on while one is alive.
        var players: [WeakPlayer] = []
        /// Streams handed to a request that has not yet made its player.
        var pendingAdoptions = 0
        var outcome: Result<AnimatedImage, any Error>?
        /// The body is complete and being decoded and stored: no new stream.
        var completing = false
        var task: URLSessionDataTask?
        var status = 0
        var headers: [String: String] = [:]
        var expectedLength: Int?
        var body = Data()
        /// The stale entry a conditional request revalidates.
        var revalidating: DiskCacheEntry?
        var stream: (any IncrementalFrameSource)?
        var streamFrames = 0
        var streamUnavailable = false
        var lastActivity = ContinuousClock.now
        var redirects = 0
        /// A redirect past the limit was refused: the response that asked for it is the error.
        var redirectRefused = false
        /// Requests that asked to hear how many bytes have arrived.
        var progressObservers: [Int: @Sendable (LoadingProgress) -> Void] = [:]
        /// Callers handed the body as it arrives (`observeBody`).
        var bodyObservers: [@Sendable (Data) -> Void] = []

        var isInterested: Bool {
            !live.isEmpty || pendingAdoptions > 0 || players.contains { $0.player != nil }
        }
    }

    private struct WeakPlayer {
        weak var player: AnimationPlayer?
    }

    init(url: URL, context: LoaderContext) {
        self.url = url
        key = url.absoluteString
        self.context = context
        state = Locked(State())
    }

    // MARK: Requests

    /// A token for one more request, or nil when this fetch is over (start a new one).
    func join() -> Int? {
        state.withLock { s -> Int? in
            guard s.outcome == nil else { return nil }
            s.nextToken += 1
            s.live.insert(s.nextToken)
            return s.nextToken
        }
    }

    /// Calls `observer` as the body arrives, until request `token` is answered or cancelled.
    func observeProgress(token: Int, _ observer: @escaping @Sendable (LoadingProgress) -> Void) {
        state.withLock { s in
            if s.live.contains(token) { s.progressObservers[token] = observer }
        }
    }

    /// Starts the fetch (once, by whoever created it).
    func start() {
        Task.detached { [self] in await run() }
    }

    /// The decoded image, or the fetch's error; `CancellationError` when the calling task is
    /// cancelled (the fetch goes on for the other requests).
    func image(token: Int) async throws -> AnimatedImage {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AnimatedImage, any Error>) in
                let answer = state.withLock { s -> Result<AnimatedImage, any Error>? in
                    if s.cancelledEarly.remove(token) != nil { return .failure(CancellationError()) }
                    if let outcome = s.outcome {
                        s.live.remove(token)
                        return outcome
                    }
                    s.imageWaiters[token] = continuation
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            cancel(token)
        }
    }

    /// The whole image, or the stream once its first frame is in; as `image(token:)` otherwise.
    func source(token: Int) async throws -> LoadedSource {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<LoadedSource, any Error>) in
                let answer = state.withLock { s -> Result<LoadedSource, any Error>? in
                    if s.cancelledEarly.remove(token) != nil { return .failure(CancellationError()) }
                    if let outcome = s.outcome {
                        s.live.remove(token)
                        return outcome.map { .image($0) }
                    }
                    if s.stream == nil, !s.completing, !s.body.isEmpty { openStream(&s) }
                    if let stream = s.stream, s.streamFrames > 0, !s.streamUnavailable {
                        s.live.remove(token)
                        s.pendingAdoptions += 1
                        return .success(.stream(stream))
                    }
                    s.sourceWaiters[token] = continuation
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            cancel(token)
        }
    }

    /// Hands `observer` the body received so far, then each piece as it arrives, in order;
    /// a body from the disk cache comes in one piece. Called under the fetch's lock: the
    /// observer must not call back into the loader.
    func observeBody(_ observer: @escaping @Sendable (Data) -> Void) {
        state.withLock { s in
            if !s.body.isEmpty { observer(s.body) }
            s.bodyObservers.append(observer)
        }
    }

    private func deliver(_ body: Data) {
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
        let (image, source, abandoned) = state.withLock { s in
            let image = s.imageWaiters.removeValue(forKey: token)
            let source = s.sourceWaiters.removeValue(forKey: token)
            s.progressObservers[token] = nil
            if s.live.remove(token) != nil, image == nil, source == nil { s.cancelledEarly.insert(token) }
            return (image, source, s.outcome == nil && !s.isInterested)
        }
        image?.resume(throwing: CancellationError())
        source?.resume(throwing: CancellationError())
        if abandoned { finish(.failure(CancellationError())) }
    }

    // MARK: The fetch

    private func run() async {
        if url.isFileURL {
            finish(Result { try AnimatedImage(contentsOf: url, registry: context.registry, options: context.options) })
            return
        }
        var revalidating: DiskCacheEntry?
        if let disk = context.disk, let entry = disk.entry(for: key) {
            if entry.isFresh(at: Self.now()) {
                if let image = try? AnimatedImage(data: entry.body, registry: context.registry, options: context.options) {
                    deliver(entry.body)
                    finish(.success(image))
                    return
                }
                disk.remove(url: key)  // a body that does not decode is not served again
            } else if entry.hasValidators {
                revalidating = entry
            }
        }
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let revalidating {
            if let etag = revalidating.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let modified = revalidating.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        }
        let task = context.network.start(request, for: self)
        let go = state.withLock { s -> Bool in
            guard s.outcome == nil else { return false }
            s.task = task
            s.revalidating = revalidating
            s.lastActivity = .now
            return true
        }
        guard go else {
            task.cancel()
            return
        }
        task.resume()
        watch()
    }

    /// Fails the fetch when nothing arrives for the timeout, and stops it when every
    /// player made from its stream is gone while it waits.
    private func watch() {
        let timeout = context.timeout
        let interval = min(timeout / 4, .milliseconds(250))
        Task.detached { [weak self] in
            var lastLook = ContinuousClock.now
            while true {
                try? await Task.sleep(for: interval)
                let now = ContinuousClock.now, previousLook = lastLook
                lastLook = now
                guard let self else { return }
                // Decoding and storing a complete body is not a stalled server.
                let (over, idle, abandoned) = self.state.withLock { s in
                    s.lastActivity = Self.activity(s.lastActivity, creditedFor: previousLook, now: now, interval: interval)
                    return (s.outcome != nil, s.completing ? .zero : now - s.lastActivity, !s.isInterested)
                }
                if over { return }
                if idle > timeout {
                    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                    self.finish(.failure(AnimatedImageError.timedOut(url: self.key, seconds: seconds)))
                    return
                }
                if abandoned {
                    self.finish(.failure(CancellationError()))
                    return
                }
            }
        }
    }

    /// The last activity moved later by the time the watch could not run: a look much later
    /// than `interval` after the previous one means the process's threads (which on Linux
    /// also deliver URLSession's data) were all busy, and that time is not the server's
    /// silence.
    static func activity(
        _ last: ContinuousClock.Instant, creditedFor previousLook: ContinuousClock.Instant,
        now: ContinuousClock.Instant, interval: Duration
    ) -> ContinuousClock.Instant {
        let late = now - previousLook - interval
        return late > interval ? last + late : last
    }

    /// The response head: refuses an error status and a `Content-Length` over the limit
    /// before any of the body is read.
    func received(response: URLResponse) -> Bool {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let status = http?.statusCode ?? 200
        let length = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        let failure: AnimatedImageError? = state.withLock { s in
            guard s.outcome == nil else { return nil }
            s.lastActivity = .now
            s.status = status
            s.headers = headers
            s.expectedLength = headers["content-encoding"].map { $0.lowercased() == "identity" } ?? true ? length : nil
            if s.redirectRefused { return .tooManyRedirects(url: key, limit: context.maximumRedirects) }
            if status == 304, s.revalidating != nil { return nil }
            if !(200..<300).contains(status) { return .httpStatus(url: key, status: status) }
            if let length, length > context.sizeLimit {
                return .responseTooLarge(url: key, size: length, limit: context.sizeLimit)
            }
            // A hint only, never past what the limit allows: the body grows as it arrives beyond it.
            if let length { s.body.reserveCapacity(min(length, 32 << 20)) }
            return nil
        }
        if let failure {
            // The delegate refuses the response and then cancels the task: cancelling it here,
            // while FoundationNetworking still waits for that answer, is what it cannot take.
            finish(.failure(failure), cancellingTask: false)
            return false
        }
        return state.withLock { $0.outcome == nil }
    }

    /// More of the body; false stops the transfer.
    func received(data: Data) -> Bool {
        var failure: AnimatedImageError?
        var ready: [CheckedContinuation<LoadedSource, any Error>] = []
        var readyStream: (any IncrementalFrameSource)?
        var grown: [AnimationPlayer] = []
        var observers: [@Sendable (LoadingProgress) -> Void] = []
        var progress = LoadingProgress(receivedBytes: 0, expectedBytes: nil)
        let keepGoing = state.withLock { s -> Bool in
            guard s.outcome == nil else { return false }
            s.lastActivity = .now
            if s.body.count + data.count > context.sizeLimit {
                failure = .responseTooLarge(url: key, size: s.body.count + data.count, limit: context.sizeLimit)
                return false
            }
            s.body.append(data)
            for observer in s.bodyObservers { observer(data) }
            if !s.progressObservers.isEmpty {
                observers = Array(s.progressObservers.values)
                progress = LoadingProgress(receivedBytes: s.body.count, expectedBytes: s.expectedLength)
            }
            if let stream = s.stream, !s.streamUnavailable {
                // A session that fails (a limit) is not handed out; the whole file still decides.
                if (try? stream.append(data)) == nil { s.streamUnavailable = true }
            } else if !s.sourceWaiters.isEmpty {
                openStream(&s)
            }
            if let stream = s.stream {
                let frames = stream.snapshot.frameCount
                if frames != s.streamFrames {
                    s.streamFrames = frames
                    grown = s.players.compactMap(\.player)
                }
                if frames > 0, !s.streamUnavailable {
                    ready = handOut(in: &s)
                    readyStream = stream
                }
            }
            return s.isInterested
        }
        if let readyStream {
            for continuation in ready { continuation.resume(returning: .stream(readyStream)) }
        }
        for player in grown { player.sourceDidChange() }
        for observer in observers { observer(progress) }
        if let failure {
            finish(.failure(failure))
        } else if !keepGoing {
            finish(.failure(CancellationError()))
        }
        return keepGoing && failure == nil
    }

    /// A redirect is about to be followed; false past the limit (the redirecting response
    /// then arrives as the response, and fails the fetch).
    func redirected() -> Bool {
        state.withLock { s -> Bool in
            s.redirects += 1
            s.lastActivity = .now
            s.redirectRefused = s.redirects > context.maximumRedirects
            return !s.redirectRefused
        }
    }

    /// The transfer ended, with `error` or not.
    func completed(error: (any Error)?) {
        let snapshot = state.withLock { s -> (Int, [String: String], Int?, Data, DiskCacheEntry?)? in
            guard s.outcome == nil, !s.completing else { return nil }
            s.completing = true
            let body = s.body
            s.body = Data()
            return (s.status, s.headers, s.expectedLength, body, s.revalidating)
        }
        guard let (status, headers, expected, body, revalidating) = snapshot else { return }
        // The session's own timeout (a backstop past the loader's) or a cancellation says why
        // the body is short; a short body with any other ending is a truncation.
        if let error = error as? URLError, error.code == .timedOut || error.code == .cancelled {
            finish(.failure(mapped(error)))
            return
        }
        if let expected, body.count < expected, (200..<300).contains(status) {
            finish(.failure(AnimatedImageError.truncatedResponse(url: key, received: body.count, expected: expected)))
            return
        }
        if let error {
            finish(.failure(mapped(error)))
            return
        }
        Task.detached { [self] in
            finish(Result { try complete(status: status, headers: headers, body: body, revalidating: revalidating) })
        }
    }

    /// A whole response: decoded, and kept on disk as its headers allow.
    private func complete(
        status: Int, headers: [String: String], body: Data,
        revalidating: DiskCacheEntry?
    ) throws -> AnimatedImage {
        let now = Self.now()
        let policy = HTTPCachePolicy(headers: headers, now: now)
        if status == 304, let revalidating {
            let refreshed = revalidating.revalidated(with: policy, now: now)
            do {
                let image = try AnimatedImage(data: refreshed.body, registry: context.registry, options: context.options)
                deliver(refreshed.body)
                // The header alone is rewritten; the whole entry only if the file changed meanwhile.
                if context.disk?.updateMetadata(of: refreshed) == false { context.disk?.store(refreshed) }
                return image
            } catch {
                context.disk?.remove(url: key)
                throw error
            }
        }
        if let stream = state.withLock({ $0.stream }) { _ = try? stream.finish() }
        let image = try AnimatedImage(data: body, registry: context.registry, options: context.options)
        if let disk = context.disk {
            if status == 200, policy.isStorable {
                disk.store(DiskCacheEntry(url: key, body: body, policy: policy, now: now))
            } else if revalidating != nil || policy.noStore {
                disk.remove(url: key)
            }
        }
        return image
    }

    /// Ends the fetch: every request still waiting gets `outcome`, a decoded image goes to
    /// the memory cache, the transfer stops if it still runs (unless the caller ends it).
    /// Only the first call counts.
    private func finish(_ outcome: Result<AnimatedImage, any Error>, cancellingTask: Bool = true) {
        if case .success(let image) = outcome { context.memory.insert(image, for: url) }
        let taken = state.withLock {
            s -> (
                images: [CheckedContinuation<AnimatedImage, any Error>],
                sources: [CheckedContinuation<LoadedSource, any Error>],
                task: URLSessionDataTask?, stream: (any IncrementalFrameSource)?,
                players: [AnimationPlayer]
            )? in
            guard s.outcome == nil else { return nil }
            s.outcome = outcome
            s.live.removeAll()
            s.body = Data()
            let taken = (
                Array(s.imageWaiters.values), Array(s.sourceWaiters.values), s.task, s.stream,
                s.players.compactMap(\.player)
            )
            s.imageWaiters = [:]
            s.progressObservers = [:]
            s.sourceWaiters = [:]
            s.task = nil
            return taken
        }
        guard let taken else { return }
        context.remove(self)
        if cancellingTask { taken.task?.cancel() }
        for continuation in taken.images { continuation.resume(with: outcome) }
        for continuation in taken.sources { continuation.resume(with: outcome.map { .image($0) }) }
        // Players already following the stream: it ends here, complete or cut short.
        if let stream = taken.stream { _ = try? stream.finish() }
        for player in taken.players { player.sourceDidChange() }
    }

    /// Opens the incremental session over the bytes so far (nil while they cannot tell the
    /// format yet; never when the coder cannot decode incrementally).
    private func openStream(_ s: inout State) {
        guard s.stream == nil, !s.streamUnavailable, !s.completing else { return }
        do {
            guard let stream = try context.registry.makeIncrementalSource(prefix: s.body, options: context.options) else { return }
            if let expected = s.expectedLength { stream.reserveCapacity(expected) }
            s.stream = stream
            s.streamFrames = stream.snapshot.frameCount
        } catch {
            s.streamUnavailable = true
        }
    }

    /// Answers every request waiting for a player: the stream is theirs to adopt.
    private func handOut(in s: inout State) -> [CheckedContinuation<LoadedSource, any Error>] {
        let waiting = Array(s.sourceWaiters)
        s.sourceWaiters = [:]
        for (token, _) in waiting { s.live.remove(token) }
        s.pendingAdoptions += waiting.count
        return waiting.map(\.value)
    }

    /// A transfer error as the loader's error.
    private func mapped(_ error: any Error) -> any Error {
        if let error = error as? AnimatedImageError { return error }
        if let error = error as? URLError {
            switch error.code {
            case .cancelled: return CancellationError()
            case .timedOut:
                let seconds = Double(context.timeout.components.seconds) + Double(context.timeout.components.attoseconds) / 1e18
                return AnimatedImageError.timedOut(url: key, seconds: seconds)
            case .httpTooManyRedirects: return AnimatedImageError.tooManyRedirects(url: key, limit: context.maximumRedirects)
            default: break
            }
        }
        return AnimatedImageError.unreadable(location: key, reason: error.localizedDescription)
    }

    private static func now() -> Double { Date().timeIntervalSince1970 }
}
