import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The session's events for this fetch (LoaderSessionDelegate routes them here). Every
// value comes from the server and is bounded here before anything is kept.
extension LoaderDownload {
    /// The response head: refuses an error status, a redirect that was not followed, and a
    /// `Content-Length` over the limit before any of the body is read.
    func received(response: URLResponse) -> Bool {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let status = http?.statusCode ?? 200
        let length = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        let limit = context.sizeLimit
        let failure: AnimatedImageError? = state.withLock { s in
            guard s.outcome == nil else { return nil }
            s.lastActivity = .now
            s.responded = true
            s.status = status
            s.headers = headers
            s.expectedLength = headers["content-encoding"].map { $0.lowercased() == "identity" } ?? true ? length : nil
            if s.redirectRefused { return .tooManyRedirects(url: key, limit: context.maximumRedirects) }
            if status == 304, s.revalidating != nil { return nil }
            // A 3xx here is one that was not followed (no Location): not the image.
            if !(200..<300).contains(status) { return .httpStatus(url: key, status: status) }
            if let length = s.expectedLength, length > limit {
                return .responseTooLarge(url: key, size: length, limit: limit)
            }
            s.spoolable =
                status == 200 && !s.temporaryRedirect && context.disk != nil
                && HTTPCachePolicy(headers: headers, now: context.now()).isStorable
            // A hint only, never past what the limit allows.
            if let length = s.expectedLength { s.body.reserveCapacity(min(length, limit, 32 << 20)) }
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

    /// More of the body; false stops the transfer. Nothing past the response limit or the
    /// loader's shared budget is kept, nor handed to an observer.
    func received(data: Data) -> Bool {
        var failure: AnimatedImageError?
        var ready: [CheckedContinuation<FetchAnswer, any Error>] = []
        var readyStream: (any IncrementalFrameSource)?
        var grown: [AnimationPlayer] = []
        var observers: [@Sendable (LoadingProgress) -> Void] = []
        var progress = LoadingProgress(receivedBytes: 0, expectedBytes: nil)
        let limit = context.sizeLimit
        let keepGoing = state.withLock { s -> Bool in
            guard s.outcome == nil else { return false }
            s.lastActivity = .now
            var piece = data
            if s.received + data.count > limit {
                // The observers get the body up to the limit exactly, whatever the chunking.
                piece = data.prefix(limit - s.received)
                failure = .responseTooLarge(url: key, size: limit + 1, limit: limit)
            }
            if !piece.isEmpty {
                if let spool = s.spool {
                    guard spool.append(piece) else {
                        failure = .unreadable(location: key, reason: "the disk cache's folder could not take the response")
                        return false
                    }
                } else {
                    guard context.budget.reserve(piece.count) else {
                        failure = .responseBudgetExceeded(url: key, limit: context.budget.limit)
                        return false
                    }
                    s.reserved += piece.count
                    s.body.append(piece)
                    spoolIfLarge(&s)
                }
                s.received += piece.count
                for observer in s.bodyObservers { observer(piece) }
            }
            if failure != nil { return false }
            if !s.progressObservers.isEmpty {
                observers = Array(s.progressObservers.values)
                progress = LoadingProgress(receivedBytes: s.received, expectedBytes: s.expectedLength)
            }
            if let stream = s.stream, !s.streamUnavailable {
                // A session that fails (a limit) is not handed out; the whole file still decides.
                if (try? stream.append(piece)) == nil { s.streamUnavailable = true }
            } else if let first = s.sourceWaiters.values.first {
                openStream(&s, options: first.options)
            }
            if let stream = s.stream {
                // New frames, or a frame drawn again (a progressive JPEG's next scan).
                let snapshot = stream.snapshot
                if snapshot.frameCount != s.streamFrames || snapshot.revision != s.streamRevision {
                    s.streamFrames = snapshot.frameCount
                    s.streamRevision = snapshot.revision
                    grown = s.players.compactMap(\.player)
                }
                let frames = snapshot.frameCount
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

    /// Moves the body to a spool in the disk cache's folder once it passes the threshold, for
    /// a response the cache may keep: the memory and the budget it held are given back.
    private func spoolIfLarge(_ s: inout State) {
        guard s.spoolable, s.body.count > context.configuration.diskStreamingThreshold,
            let spool = context.disk?.spool(for: key)
        else { return }
        guard spool.append(s.body) else {
            spool.discard()
            s.spoolable = false
            return
        }
        s.spool = spool
        s.body = Data()
        context.budget.release(s.reserved)
        s.reserved = 0
    }

    /// A redirect (`response`) is about to be followed; false past the limit (the
    /// redirecting response then arrives as the response, and fails the fetch). A 302, 303
    /// or 307 without a lifetime of its own makes the final response not the original URL's
    /// to keep (RFC 9111 §3: a temporary redirect is not the resource).
    func redirected(_ response: HTTPURLResponse) -> Bool {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        let temporary =
            [302, 303, 307].contains(response.statusCode)
            && (HTTPCachePolicy(headers: headers, now: context.now()).lifetime ?? 0) <= 0
        return state.withLock { s -> Bool in
            s.redirects += 1
            s.lastActivity = .now
            if temporary { s.temporaryRedirect = true }
            s.redirectRefused = s.redirects > context.maximumRedirects
            return !s.redirectRefused
        }
    }

    /// The transfer ended, with `error` or not. `response` is the task's last response: a
    /// redirect FoundationNetworking did not follow (no `Location`) ends the task without
    /// handing its head to the delegate, and is an HTTP status, not the image.
    func completed(error: (any Error)?, response: URLResponse?) {
        let unanswered = (response as? HTTPURLResponse).map(\.statusCode)
        var spoolLost = false
        let snapshot = state.withLock { s -> CompletedTransfer? in
            guard s.outcome == nil, !s.completing else { return nil }
            if !s.responded, let unanswered { s.status = unanswered }
            // A spooled body is read back once, whole: its decode and its entry need it.
            let body = s.spool.map { $0.contents() } ?? s.body
            s.spool?.discard()
            s.spool = nil
            s.body = Data()
            guard let body else {
                spoolLost = true
                return nil
            }
            s.completing = true
            return CompletedTransfer(
                status: s.status, headers: s.headers, expected: s.expectedLength, body: body,
                revalidating: s.revalidating, temporaryRedirect: s.temporaryRedirect)
        }
        if spoolLost {
            let reason = "the body written to the disk cache's folder could not be read back"
            finish(.failure(AnimatedImageError.unreadable(location: key, reason: reason)))
        }
        guard let snapshot else { return }
        // The session's own timeout (a backstop past the loader's) or a cancellation says why
        // the body is short; a short body with any other ending is a truncation.
        if let error = error as? URLError, error.code == .timedOut || error.code == .cancelled {
            finish(.failure(mapped(error)))
            return
        }
        if let expected = snapshot.expected, snapshot.body.count < expected, (200..<300).contains(snapshot.status) {
            finish(.failure(AnimatedImageError.truncatedResponse(url: key, received: snapshot.body.count, expected: expected)))
            return
        }
        if let error {
            finish(.failure(mapped(error)))
            return
        }
        if !(200..<300).contains(snapshot.status), !(snapshot.status == 304 && snapshot.revalidating != nil) {
            finish(.failure(AnimatedImageError.httpStatus(url: key, status: snapshot.status)))
            return
        }
        Task.detached { [self] in
            let result = Result { try complete(snapshot) }
            // The whole body goes to the memory cache before anyone hears the end, even when
            // only players (over the stream) asked for it: decoded at the options they used.
            if case .success(let body) = result {
                let options = state.withLock { $0.streamOptions } ?? request.decodingOptions
                _ = try? await decoded(body, options: options, priority: request.priority)
            }
            finish(result)
        }
    }

    /// A transfer error as the loader's error.
    func mapped(_ error: any Error) -> any Error {
        if let error = error as? AnimatedImageError { return error }
        if let error = error as? URLError {
            switch error.code {
            case .cancelled: return CancellationError()
            case .timedOut:
                let seconds = context.timeout.secondsValue
                let responded = state.withLock { $0.responded }
                return responded
                    ? AnimatedImageError.timedOut(url: key, seconds: seconds)
                    : AnimatedImageError.noResponse(url: key, seconds: seconds)
            case .httpTooManyRedirects: return AnimatedImageError.tooManyRedirects(url: key, limit: context.maximumRedirects)
            default: break
            }
        }
        return AnimatedImageError.unreadable(location: key, reason: error.localizedDescription)
    }
}

/// What a finished transfer left: the response and its body.
struct CompletedTransfer: Sendable {
    var status: Int
    var headers: [String: String]
    var expected: Int?
    var body: Data
    var revalidating: DiskCacheEntry?
    var temporaryRedirect: Bool
}
