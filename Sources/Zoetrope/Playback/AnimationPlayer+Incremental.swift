extension AnimationPlayer {
    /// A player of a file that is still arriving: it plays the frames of `session` that
    /// have arrived, in order, and stalls on the last of them while more may come.
    ///
    /// ```swift
    /// let session = coder.makeIncrementalSource(options: .default)
    /// let player = AnimationPlayer(incrementalSource: session, display: view)
    /// player.play()
    /// for try await chunk in download {
    ///     try session.append(chunk)
    /// }
    /// try session.finish()
    /// ```
    ///
    /// The player checks the session at every tick while it plays (call `sourceDidChange()`
    /// to have a paused or idle player take new frames at once, such as a poster asked for
    /// with `prepare()`). While the session is receiving, the player never loops back to
    /// frame 0 and never finishes: a half-downloaded animation never shows a wrong loop.
    /// Waiting at the download edge is a stall (`PlayerEvent.stalled(waitingFor:)` names the
    /// frame not yet arrived), and the frame that arrives then gets its whole duration under
    /// either `LatePolicy`. Reversed play orders start once the file is complete (they begin
    /// at the last frame). Once the session is complete the player is exactly a player of
    /// the whole file. Should the session fail (a passed limit), playback stops with
    /// `PlayerEvent.decodeFailed` naming the first frame that did not arrive; should it
    /// withdraw its frames (`IncrementalSnapshot.revision`, an APNG shown as its still
    /// image), the player starts over on the new frames, keeping its state (playing stays
    /// playing). With `DecodingOptions.showsPartialFirstFrame`, frame 0 shows while it
    /// arrives and is drawn again as bytes come. Before the format and canvas are known,
    /// `info` has no frames and a 0×0
    /// canvas. Buffer policies and shared caches work unchanged; a keep-all policy decodes
    /// one frame at a time until the file is complete.
    public convenience init(
        incrementalSource session: any IncrementalFrameSource, clock: any FrameClock = TimerClock.shared,
        display: (any AnimationDisplay)? = nil, configuration: PlayerConfiguration = PlayerConfiguration()
    ) {
        let identity = "incremental:\(UInt(bitPattern: ObjectIdentifier(session)))"
        let snapshot = session.snapshot
        let info = snapshot.info ?? AnimationPlayer.placeholderInfo(snapshot)
        self.init(
            source: IncrementalFrameSourceView(session: session, info: info), clock: clock, display: display,
            configuration: configuration, imageIdentity: .known(identity))
        box.withLock { b in
            b.engine.mayGrow = true
            b.growth = SourceGrowth(
                session: session, identity: identity, revision: snapshot.revision,
                hasInfo: snapshot.info != nil)
        }
        followSource()
    }

    /// Takes what the session behind this player (`init(incrementalSource:)`) has received
    /// since the last check: new frames are decoded as the buffer policy wants them, and a
    /// player stalled at the download edge moves on at its next tick. Playing players check
    /// at every tick by themselves; this is for an idle or paused one. Does nothing for a
    /// player of a whole file.
    public func sourceDidChange() { followSource() }

    /// Whether the player follows a session still arriving.
    var isFollowingSource: Bool { box.withLock { $0.growth != nil } }

    static func placeholderInfo(_ snapshot: IncrementalSnapshot) -> AnimationInfo {
        AnimationInfo(
            format: snapshot.format
                ?? ImageFormat(
                    identifier: "unknown", mediaType: "application/octet-stream",
                    fileExtensions: []),
            canvasSize: PixelSize(width: 0, height: 0), frameDurations: [], loopCount: .once, storedLoopValue: nil)
    }

    /// Brings the engine up to the session's snapshot (taken outside the player's lock).
    func followSource() {
        guard let session = box.withLock({ $0.growth?.session }) else { return }
        let snapshot = session.snapshot
        let (fx, epoch) = box.withLock { b -> (PlaybackEffects, Int) in
            var fx = PlaybackEffects()
            guard var growth = b.growth, growth.session === session else { return (fx, b.displayEpoch) }
            follow(snapshot, growth: &growth, in: &b, into: &fx)
            b.growth = snapshot.mayGrow ? growth : nil
            apply(&fx, to: &b)
            b.subscription?.updatePreferredInterval(b.engine.preferredTickInterval)
            return (fx, b.displayEpoch)
        }
        carryOut(fx, epoch: epoch)
    }

    private func follow(
        _ snapshot: IncrementalSnapshot, growth: inout SourceGrowth, in b: inout Box,
        into fx: inout PlaybackEffects
    ) {
        let more = snapshot.mayGrow
        if let info = snapshot.info {
            let partial = snapshot.firstFrameIsPartial ? snapshot.receivedByteCount : nil
            if !growth.hasInfo || snapshot.revision != growth.revision || info.canvasSize != b.engine.info.canvasSize
                || partial != growth.partialFrameBytes
            {
                // The first real info, frames withdrawn, or more of a frame 0 still arriving:
                // a new engine, in the same state.
                let status = b.engine.status, prepared = b.engine.pendingShow != nil
                let diagnostics = b.engine.diagnostics, stalled = b.engine.wasStalled, auto = b.engine.playedByAutoPlay
                let identity = "\(growth.identity)/\(snapshot.revision)" + (partial.map { "/partial\($0)" } ?? "")
                replaceEngine(
                    in: &b, source: IncrementalFrameSourceView(session: growth.session, info: info),
                    sharedImageKey: nil, imageIdentity: .known(identity), into: &fx)
                b.engine.mayGrow = more
                growth.hasInfo = true
                growth.revision = snapshot.revision
                growth.partialFrameBytes = partial
                switch status {
                case .playing: b.engine.play(into: &fx)
                case .showingPoster, .stopped: b.engine.showPosterOnly(state: status, into: &fx)
                case .paused, .finished: b.engine.prepare(into: &fx)
                case .idle, .failed: if prepared { b.engine.prepare(into: &fx) }
                }
                // The same player: its counters and a stall in progress carry on.
                b.engine.diagnostics = diagnostics
                b.engine.wasStalled = stalled
                b.engine.playedByAutoPlay = auto
            } else if info.frameCount != b.engine.frameCount || more != b.engine.mayGrow
                || info.loopCount != b.engine.info.loopCount || info.format != b.engine.info.format
            {
                b.source = IncrementalFrameSourceView(session: growth.session, info: info)
                b.engine.grow(to: info, mayGrow: more, into: &fx)
            }
        }
        if case .failed(let error) = snapshot.state {
            b.engine.sourceFailed(error, into: &fx)
        } else if !more, snapshot.info == nil {
            // Complete without ever knowing a frame: what the whole file would have thrown.
            b.engine.sourceFailed(
                .truncated(
                    format: snapshot.format ?? b.engine.info.format, completeFrames: 0,
                    reason: "the data ended before the first frame"), into: &fx)
        }
    }
}
