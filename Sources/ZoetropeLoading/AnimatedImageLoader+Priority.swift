import Foundation
import Zoetrope

extension AnimatedImageLoader {
    /// Makes the download of `request`'s URL more or less urgent while it waits or runs, as
    /// a view scrolls into sight or out of it: a waiting download moves to its new place in
    /// the queue, a running one passes the priority to its transfer. Every request sharing
    /// that download moves with it; with no download of the URL in flight, nothing changes.
    /// Decodes already started keep the priority they started at.
    public func setPriority(_ priority: ImageRequest.Priority, for request: ImageRequest) {
        let download = context.inFlight.withLock { $0[request.url] }
        download?.setPriority(priority)
    }

    /// Makes the download of what `display` asked for with `load(_:into:options:)` more or
    /// less urgent, as `setPriority(_:for:)` does for a request.
    @MainActor
    public func setPriority(_ priority: ImageRequest.Priority, for display: any AnimationDisplay) {
        guard let key = views.key(for: ObjectIdentifier(display)) else { return }
        context.inFlight.withLock { $0[key.url] }?.setPriority(priority)
    }
}

extension AnimatedImageLoader {
    /// Downloads on the network and waiting for a place, for tests and diagnostics.
    package var queueCounts: (running: Int, waiting: Int) { context.queue.counts }
}
