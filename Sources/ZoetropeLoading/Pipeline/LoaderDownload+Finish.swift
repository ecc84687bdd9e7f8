import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LoaderDownload {
    /// A whole response, kept on disk as its headers allow: the body to decode. A 304
    /// refreshes the stale entry's metadata and answers with its body.
    func complete(_ transfer: CompletedTransfer) throws -> FetchedBody {
        let now = context.now()
        let policy = HTTPCachePolicy(headers: transfer.headers, now: now)
        if transfer.status == 304, let revalidating = transfer.revalidating {
            let refreshed = revalidating.revalidated(with: policy, now: now)
            // The header alone is rewritten; the whole entry only if the file changed meanwhile.
            if context.disk?.updateMetadata(of: refreshed) == false { context.disk?.store(refreshed) }
            deliver(refreshed.body)
            return FetchedBody(data: refreshed.body, fromDisk: true)
        }
        if let stream = state.withLock({ $0.stream }) { _ = try? stream.finish() }
        if let disk = context.disk {
            if transfer.status == 200, policy.isStorable, !transfer.temporaryRedirect {
                disk.store(DiskCacheEntry(url: key, body: transfer.body, policy: policy, now: now))
            } else if transfer.revalidating != nil || policy.noStore || transfer.temporaryRedirect {
                disk.remove(url: key)
            }
        }
        return FetchedBody(data: transfer.body, fromDisk: false)
    }

    /// Ends the fetch: every request still waiting gets `outcome`, the transfer stops if it
    /// still runs (unless the caller ends it), the queue place and the budget are given
    /// back. Only the first call counts.
    func finish(_ outcome: Result<FetchedBody, any Error>, cancellingTask: Bool = true) {
        let taken = state.withLock {
            s -> (
                bodies: [CheckedContinuation<FetchedBody, any Error>],
                sources: [CheckedContinuation<FetchAnswer, any Error>],
                task: (any TransportTask)?, stream: (any IncrementalFrameSource)?,
                players: [AnimationPlayer], queued: Bool, reserved: Int
            )? in
            guard s.outcome == nil else { return nil }
            s.outcome = outcome
            s.live.removeAll()
            s.body = Data()
            s.spool?.discard()
            s.spool = nil
            let taken = (
                Array(s.bodyWaiters.values), s.sourceWaiters.values.map(\.continuation), s.task, s.stream,
                s.players.compactMap(\.player), s.queued, s.reserved
            )
            s.bodyWaiters = [:]
            s.progressObservers = [:]
            s.sourceWaiters = [:]
            s.task = nil
            s.reserved = 0
            return taken
        }
        guard let taken else { return }
        context.remove(self)
        DeadlineWatch.shared.remove(self)
        if taken.queued { context.queue.release(ObjectIdentifier(self)) }
        context.budget.release(taken.reserved)
        if cancellingTask { taken.task?.cancel() }
        for continuation in taken.bodies { continuation.resume(with: outcome) }
        for continuation in taken.sources { continuation.resume(with: outcome.map { .body($0) }) }
        // Players already following the stream: it ends here, complete or cut short.
        if let stream = taken.stream { _ = try? stream.finish() }
        for player in taken.players { player.sourceDidChange() }
    }

    /// `body` decoded at `options`: one decode per options for every request of this fetch,
    /// kept in the memory cache. A body from the disk cache that does not decode is removed
    /// from it, so it is not served again.
    func decoded(_ body: FetchedBody, options: DecodingOptions, priority: ImageRequest.Priority) async throws -> AnimatedImage {
        let task = state.withLock { s -> Task<AnimatedImage, any Error> in
            if let running = s.decodes[options] { return running }
            let context = self.context, url = self.url, key = self.key
            let task = Task.detached(priority: priority.taskPriority) { () throws -> AnimatedImage in
                do {
                    let image = try AnimatedImage(data: body.data, registry: context.registry, options: options)
                    context.memory.insert(image, for: ImageRequestKey(url: url, options: options))
                    return image
                } catch {
                    if body.fromDisk { context.disk?.remove(url: key) }
                    throw error
                }
            }
            s.decodes[options] = task
            return task
        }
        return try await task.value
    }

    /// Opens the incremental session at `options` over the bytes so far (nil while they
    /// cannot tell the format yet; never when the coder cannot decode incrementally).
    func openStream(_ s: inout State, options: DecodingOptions) {
        guard s.stream == nil, !s.streamUnavailable, !s.completing else { return }
        do {
            guard let prefix = s.bodySoFar,
                let stream = try context.registry.makeIncrementalSource(prefix: prefix, options: options)
            else { return }
            if let expected = s.expectedLength { stream.reserveCapacity(min(expected, context.sizeLimit)) }
            s.stream = stream
            s.streamOptions = options
            s.streamFrames = stream.snapshot.frameCount
        } catch {
            s.streamUnavailable = true
        }
    }

    /// Answers every request waiting for a player at the stream's options: the stream is
    /// theirs to adopt.
    func handOut(in s: inout State) -> [CheckedContinuation<FetchAnswer, any Error>] {
        let waiting = s.sourceWaiters.filter { $0.value.options == s.streamOptions }
        for (token, _) in waiting {
            s.sourceWaiters[token] = nil
            s.live.remove(token)
        }
        s.pendingAdoptions += waiting.count
        return waiting.map(\.value.continuation)
    }
}
