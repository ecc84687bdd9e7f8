/// Playing a source that is still arriving (`AnimationPlayer(incrementalSource:)`): the
/// frames known so far play in order, the player stalls at the last of them while more may
/// come, and never loops back to frame 0 or finishes before the file is complete.
extension PlaybackEngine {
    /// Whether place `p` is the last frame that has arrived while more may come: time
    /// stops there instead of moving on (a bounce turns only once the file is complete).
    func atDownloadEdge(_ p: Int) -> Bool { mayGrow && p >= frameCount - 1 }

    /// Takes the source's longer info (the same canvas, more frames, maybe the plays);
    /// `more` says whether frames may still come. The frames already held stay valid.
    mutating func grow(to newInfo: AnimationInfo, mayGrow more: Bool, into fx: inout PlaybackEffects) {
        // Places in a reversed order move as frames are added: keep the frames instead,
        // except a play's start, which stays the first place of the order.
        let startingPlay = status == .playing && current == nil
        let pendingFrame = pendingShow
        info = newInfo
        frameCount = newInfo.frameCount
        if let c = current { position = position(ofFrame: c) }
        if !startingPlay { pendingShow = pendingFrame }
        mayGrow = more
        setDelayPolicy(delayPolicy)
        schedule(into: &fx)
        if status != .playing { showPendingIfReady(into: &fx) }
    }

    /// The source failed before its end (a passed limit, a broken header): playback stops
    /// on the frame shown, as for a failed decode.
    mutating func sourceFailed(_ error: AnimatedImageError, into fx: inout PlaybackEffects) {
        mayGrow = false
        status = .failed
        fx.wantsTicks = false
        fx.events.append(.decodeFailed(index: frameCount, error: error))
        noteMemory()
    }
}
