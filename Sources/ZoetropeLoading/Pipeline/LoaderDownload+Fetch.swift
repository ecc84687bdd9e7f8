import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LoaderDownload {
    /// The fetch: a fresh disk entry answers at once; otherwise a place in the queue, the
    /// request (conditional when a stale entry has validators, through the modifiers), and
    /// the watch of its timeouts.
    func run() async {
        if url.isFileURL {
            finish(Result { FetchedBody(data: try AnimatedImage.fileData(contentsOf: url), fromDisk: false) })
            return
        }
        var revalidating: DiskCacheEntry?
        if !ignoresCache, let disk = context.disk, let entry = disk.entry(for: key) {
            if entry.isFresh(at: context.now()) {
                // Decoded here, so that a body that does not decode is fetched again now.
                let options = request.decodingOptions
                if let image = try? AnimatedImage(data: entry.body, registry: context.registry, options: options) {
                    context.memory.insert(image, for: ImageRequestKey(url: url, options: options))
                    state.withLock { $0.decodes[options] = Task { image } }
                    deliver(entry.body)
                    finish(.success(FetchedBody(data: entry.body, fromDisk: true)))
                    return
                }
                disk.remove(url: key)
            }
            if entry.hasValidators { revalidating = entry }
        }
        let priority = state.withLock { s -> ImageRequest.Priority? in
            guard s.outcome == nil else { return nil }
            s.queued = true
            return s.priority
        }
        guard let priority, await context.queue.acquire(ObjectIdentifier(self), priority: priority) else { return }
        var request = self.request.urlRequest
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let revalidating {
            if let etag = revalidating.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let modified = revalidating.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        }
        do {
            if let modifier = context.configuration.requestModifier { request = try await modifier(request) }
            if let modifier = self.request.requestModifier { request = try await modifier(request) }
        } catch {
            finish(.failure(error))
            return
        }
        let task = context.transport.start(request, for: self)
        let go = state.withLock { s -> ImageRequest.Priority? in
            guard s.outcome == nil else { return nil }
            s.task = task
            s.revalidating = revalidating
            s.started = .now
            s.lastActivity = .now
            return s.priority
        }
        guard let go else {
            task.cancel()
            return
        }
        // Outside the lock: FoundationNetworking sets it on its own queue, which may be
        // waiting to deliver to this download.
        task.priority = go.sessionPriority
        DeadlineWatch.shared.add(self, deadline: .now + context.configuration.deadline)
        task.resume()
        watch()
    }

    /// The whole download passed its deadline (`DeadlineWatch`): it fails, unless its body
    /// is complete and only being stored.
    func deadlinePassed() {
        let failing = state.withLock { s in s.outcome == nil && !s.completing }
        guard failing else { return }
        finish(.failure(AnimatedImageError.deadlineExceeded(url: key, seconds: context.configuration.deadline.secondsValue)))
    }

    /// Fails the fetch when the head or the next byte does not come within the timeout, and
    /// stops it when every player made from its stream is gone while it waits. (The
    /// deadline is `DeadlineWatch`'s.)
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
                // Storing a complete body is not a stalled server.
                let (over, idle, responded, abandoned) = self.state.withLock { s in
                    s.lastActivity = Self.activity(s.lastActivity, creditedFor: previousLook, now: now, interval: interval)
                    return (s.outcome != nil, s.completing ? .zero : now - s.lastActivity, s.responded, !s.isInterested)
                }
                if over { return }
                if idle > timeout {
                    let seconds = timeout.secondsValue
                    self.finish(
                        .failure(
                            responded
                                ? AnimatedImageError.timedOut(url: self.key, seconds: seconds)
                                : AnimatedImageError.noResponse(url: self.key, seconds: seconds)))
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
}
