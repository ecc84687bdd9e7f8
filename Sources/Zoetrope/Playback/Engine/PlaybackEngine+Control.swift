extension PlaybackEngine {
    mutating func play(into fx: inout PlaybackEffects) {
        // A source still arriving may play before its first frame: it waits for it.
        guard frameCount > 0 || mayGrow else { return }
        playedByAutoPlay = false
        let env = environment
        let posterOnly = env.reduceMotion || (env.lowPower && env.lowPowerBehavior == .poster)
        if case .throttle(let fps) = env.lowPowerBehavior, env.lowPower, fps > 0 {
            throttleNanoseconds = 1_000_000_000 / Int64(fps)
        } else {
            throttleNanoseconds = nil
        }
        if posterOnly {
            showPosterOnly(state: .showingPoster, into: &fx)
            return
        }
        switch status {
        case .playing:
            return
        case .paused, .failed:
            if current == nil && pendingPosition == nil { pendingPosition = 0 }
        case .idle, .stopped, .finished, .showingPoster:
            // Every play again, from the first place in play order.
            playsCompleted = 0
            pendingPosition = 0
            pendingProgress = 0
            progress = 0
        }
        status = .playing
        lastTick = nil
        lastProcessedTick = nil
        wasStalled = false
        fx.wantsTicks = true
        schedule(into: &fx)
    }

    /// Plays if the environment allows auto-play, else shows the poster; either way the
    /// environment's auto-play setting governs this play from now on.
    mutating func autoPlay(into fx: inout PlaybackEffects) {
        if environment.autoPlay {
            play(into: &fx)
        } else {
            showPosterOnly(state: .showingPoster, into: &fx)
        }
        playedByAutoPlay = true
    }

    /// Takes `env` at once: a player that is playing, or was asked to play and shows the
    /// poster because the environment held it, follows it now (to the poster, back to
    /// playing from the first frame, or to another throttle), not at the next `play()`.
    mutating func setEnvironment(_ env: PlaybackEnvironment, into fx: inout PlaybackEffects) {
        environment = env
        guard status == .playing || status == .showingPoster else { return }
        let held = env.reduceMotion || (env.lowPower && env.lowPowerBehavior == .poster) || (playedByAutoPlay && !env.autoPlay)
        if held {
            if status == .playing { showPosterOnly(state: .showingPoster, into: &fx) }
        } else {
            let auto = playedByAutoPlay
            play(into: &fx)  // from the poster: a new play; while playing: only the throttle changes
            playedByAutoPlay = auto
        }
    }

    /// Shows the poster (as soon as it is decoded) and stops animating.
    mutating func showPosterOnly(state: PlaybackState, into fx: inout PlaybackEffects) {
        status = state
        playsCompleted = 0
        progress = 0
        lastTick = nil
        fx.wantsTicks = false
        pendingShow = 0
        pendingProgress = 0
        releaseFrames(keeping: [])
        store.trimIdle()
        showPendingIfReady(into: &fx)
        schedule(into: &fx)
    }

    mutating func pause(into fx: inout PlaybackEffects) {
        guard status == .playing else { return }
        status = .paused
        lastTick = nil
        fx.wantsTicks = false
    }

    mutating func stop(into fx: inout PlaybackEffects) {
        guard frameCount > 0 || mayGrow else { return }
        showPosterOnly(state: .stopped, into: &fx)
    }

    mutating func seek(to index: Int, into fx: inout PlaybackEffects) {
        guard frameCount > 0 else { return }
        let i = min(max(index, 0), frameCount - 1)
        seek(toPosition: position(ofFrame: i), offset: 0, into: &fx)
    }

    /// Moves to place `p` in play order, `offset` (progress units) into its frame. A seek
    /// on a finished animation starts its plays over, as `play()` does.
    mutating func seek(toPosition p: Int, offset: Int64, into fx: inout PlaybackEffects) {
        pendingPosition = p
        pendingProgress = offset
        progress = offset
        lastTick = nil
        switch status {
        case .playing:
            break
        case .finished:
            playsCompleted = 0
            status = .paused
        case .idle, .stopped, .showingPoster, .failed:
            status = .paused
        case .paused:
            break
        }
        if status != .playing { showPendingIfReady(into: &fx) }
        schedule(into: &fx)
    }

    /// Frees every buffer; later decode results of this generation are dropped.
    mutating func reset(into fx: inout PlaybackEffects) {
        store.reset()
        if let p = givenPoster { store.adoptPoster(p) }
        generation += 1
        status = .idle
        current = nil
        pendingPosition = nil
        pendingProgress = 0
        position = 0
        progress = 0
        lastTick = nil
        playsCompleted = 0
        fx.wantsTicks = false
        lastReport = nil
        noteMemory()
    }

    /// Reuses `poster`, decoded elsewhere, as frame 0 from now on.
    mutating func adoptPoster(_ poster: PixelBuffer) {
        givenPoster = poster
        store.adoptPoster(poster)
        noteMemory()
    }

    /// Decodes the poster if needed and shows it, without playing; a player that shows a
    /// frame already (playing, paused, finished) is left as it is.
    mutating func prepare(into fx: inout PlaybackEffects) {
        if current == nil && pendingShow == nil && status != .playing { pendingShow = 0 }
        schedule(into: &fx)
        if status != .playing { showPendingIfReady(into: &fx) }
    }
}
