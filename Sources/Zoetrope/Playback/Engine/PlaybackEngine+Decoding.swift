extension PlaybackEngine {
    /// Gives back frames outside `keep` (the frame shown always stays).
    mutating func releaseFrames(keeping keep: Set<Int>) {
        var keep = keep
        if let c = current { keep.insert(c) }
        store.release(keeping: keep)
    }

    /// Evicts frames that left the window and starts the next decode the window needs.
    mutating func schedule(into fx: inout PlaybackEffects) {
        let desired = desiredFrames()
        releaseFrames(keeping: Set(desired))
        defer {
            store.trimIdle(window: windowSize)
            noteMemory()
        }
        guard visible, store.inFlight == nil, status != .failed, frameCount > 0 else { return }
        if store.poster == nil {
            // Nothing else is decoded before the poster.
            guard !store.isWaiting(for: 0), acquire(0, into: &fx) == .held else { return }
            if status != .playing { showPendingIfReady(into: &fx) }
        }
        guard status == .playing || pendingShow != nil else { return }
        for i in desired where !isReady(i) && !store.isWaiting(for: i) {
            if acquire(i, into: &fx) == .decoding { return }
        }
        if pendingShow != nil && status != .playing { showPendingIfReady(into: &fx) }
    }

    private enum Acquired { case held, waiting, decoding }

    /// Asks the store for frame `index` and starts its decode if it is ours to decode.
    private mutating func acquire(_ index: Int, into fx: inout PlaybackEffects) -> Acquired {
        switch store.acquire(index) {
        case .ready:
            diagnostics.framesFromSharedCache += 1
            return .held
        case .waiting:
            return .waiting
        case .decode(let buffer, let outlet):
            if store.buffersCreated > diagnostics.buffersCreated { diagnostics.buffersCreated = store.buffersCreated }
            fx.requests.append(
                DecodeRequest(
                    index: index, buffer: buffer, generation: generation, isPoster: index == 0,
                    outlet: outlet))
            return .decoding
        }
    }

    /// A shared frame someone else decoded was published: ask the cache again.
    mutating func sharedFramesArrived(into fx: inout PlaybackEffects) {
        store.stopWaiting()
        schedule(into: &fx)
        if status != .playing { showPendingIfReady(into: &fx) }
    }

    /// A decode finished. Its outlet already published (or abandoned) a shared frame.
    mutating func decodeFinished(
        _ r: DecodeRequest, result: Result<PixelBuffer, AnimatedImageError>, elapsed: Duration,
        into fx: inout PlaybackEffects
    ) {
        guard r.generation == generation else {
            // A reset happened meanwhile; what the decode holds is no longer ours to track.
            if case .success = result { r.outlet.discard() }
            return
        }
        recordDecodeTime(elapsed)
        switch result {
        case .success(let b):
            diagnostics.framesDecoded += 1
            let keep = Set(desiredFrames()).contains(r.index) || r.index == pendingShow
            store.decodeSucceeded(index: r.index, isPoster: r.isPoster, buffer: b, keep: keep)
            if status != .playing { showPendingIfReady(into: &fx) }
            schedule(into: &fx)
        case .failure(let error):
            store.decodeFailed(isPoster: r.isPoster)
            status = .failed
            fx.wantsTicks = false
            fx.events.append(.decodeFailed(index: r.index, error: error))
            noteMemory()
        }
    }
}
