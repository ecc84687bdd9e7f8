extension PlaybackEngine {
    mutating func tick(at t: Int64, visible isVisible: Bool, into fx: inout PlaybackEffects) {
        var stalled = false
        var skipped = 0
        defer { report(t, stalled: stalled, skipped: skipped) }
        guard isVisible else {
            // Hidden: no time passes for the animation and nothing new is decoded.
            visible = false
            lastTick = nil
            return
        }
        if !visible {
            visible = true
            schedule(into: &fx)
        }
        updatePressure(at: t, into: &fx)
        guard status == .playing else { return }
        if let th = throttleNanoseconds, let last = lastProcessedTick, t - last < th { return }
        lastProcessedTick = t

        if current == nil || pendingPosition != nil {
            let target = pendingPosition ?? 0
            if mayGrow && (reversedOrder || frameCount == 0) {
                // A reversed order starts from the last frame, known only once the file is.
                stalled = true
                noteStall(waitingFor: frameCount, into: &fx)
            } else if isReady(frame(at: target)) {
                pendingPosition = nil
                show(position: target, into: &fx)
                progress = pendingProgress
                pendingProgress = 0
                wasStalled = false
                if frameCount == 1 && !mayGrow { finish(into: &fx) }
            } else {
                stalled = true
                noteStall(waitingFor: frame(at: target), into: &fx)
            }
            lastTick = t
            schedule(into: &fx)
            return
        }

        // Cap one step (a suspended process must not fast-forward), but never below what the
        // frame shown needs, so that a clock fitted to long frames still plays them on time.
        let frameNeeds = current.map { durations[$0] * 1000 / rateMilli + 1 } ?? 0
        let delta = min(max(0, t - (lastTick ?? t)), max(maxStepNanoseconds, frameNeeds))
        lastTick = t
        progress += delta * rateMilli
        let before = current
        switch latePolicy {
        case .stall: advanceStalling(stalled: &stalled, into: &fx)
        case .catchUp: advanceCatchingUp(stalled: &stalled, skipped: &skipped, into: &fx)
        }
        if !stalled { wasStalled = false }
        // Only a new frame (or a changed window) changes what to keep and decode; decode
        // completions schedule by themselves.
        if current != before || windowChanged { schedule(into: &fx) }
    }

    private mutating func advanceStalling(stalled: inout Bool, into fx: inout PlaybackEffects) {
        guard let cur = current else { return }
        let d = durations[cur] * 1000
        guard progress >= d else { return }
        if atDownloadEdge(position) {
            progress = d
            stalled = true
            noteStall(waitingFor: frameCount, into: &fx)
            return
        }
        let atEnd = position >= lastPosition
        if atEnd && onLastPlay {
            progress = d
            finish(into: &fx)
            return
        }
        let nextPosition = atEnd ? 0 : position + 1
        let next = frame(at: nextPosition)
        if isReady(next) {
            progress -= d
            if atEnd { completeLoop(into: &fx) }
            show(position: nextPosition, into: &fx)
            // After a stall the late frame gets its full duration from now; otherwise at
            // most one frame per tick, so time beyond the next frame's duration is dropped.
            progress = wasStalled ? 0 : min(progress, durations[next] * 1000)
        } else {
            progress = d
            stalled = true
            noteStall(waitingFor: next, into: &fx)
        }
    }

    private mutating func advanceCatchingUp(stalled: inout Bool, skipped: inout Int, into fx: inout PlaybackEffects) {
        guard var cur = current else { return }
        var pos = position
        // More than a whole loop behind: restart timing instead of skipping the loop.
        if !mayGrow, loopNanoseconds > 0, progress - durations[cur] * 1000 >= loopNanoseconds * 1000 {
            progress = durations[cur] * 1000
        }
        var steps = 0
        var finished = false
        while steps <= cycleLength {
            let d = durations[cur] * 1000
            guard progress >= d else { break }
            if atDownloadEdge(pos) {
                // Waiting for bytes is not lateness: the next frame, when it arrives, gets
                // its whole duration instead of being skipped to catch up.
                progress = d
                stalled = true
                noteStall(waitingFor: frameCount, into: &fx)
                break
            }
            let atEnd = pos >= lastPosition
            if atEnd && onLastPlay {
                progress = d
                finished = true
                break
            }
            let nextPosition = atEnd ? 0 : pos + 1
            let next = frame(at: nextPosition)
            guard isReady(next) else {
                stalled = true
                noteStall(waitingFor: next, into: &fx)
                break
            }
            progress -= d
            if atEnd { completeLoop(into: &fx) }
            cur = next
            pos = nextPosition
            steps += 1
        }
        if steps > 0 {
            skipped = steps - 1
            diagnostics.skippedFrames += skipped
            show(position: pos, into: &fx)
        }
        if finished { finish(into: &fx) }
    }

    private mutating func completeLoop(into fx: inout PlaybackEffects) {
        playsCompleted += 1
        diagnostics.loopsCompleted += 1
        fx.events.append(.loopCompleted(plays: playsCompleted))
    }

    private mutating func finish(into fx: inout PlaybackEffects) {
        if frameCount > 1 { completeLoop(into: &fx) }
        status = .finished
        fx.wantsTicks = false
        fx.events.append(.finished)
    }

    private mutating func noteStall(waitingFor index: Int, into fx: inout PlaybackEffects) {
        diagnostics.stalledTicks += 1
        if !wasStalled {
            wasStalled = true
            diagnostics.stallEpisodes += 1
            fx.events.append(.stalled(waitingFor: index))
        }
    }

    private mutating func show(position p: Int, into fx: inout PlaybackEffects) {
        let index = frame(at: p)
        guard let b = store.buffer(index) else { return }
        current = index
        position = p
        diagnostics.framesShown += 1
        fx.show = (b, index)
        fx.events.append(.frameShown(index: index))
    }

    /// Shows the frame a seek or stop asked for, if it is decoded.
    mutating func showPendingIfReady(into fx: inout PlaybackEffects) {
        if let p = pendingPosition, isReady(frame(at: p)) {
            pendingPosition = nil
            pendingProgress = 0
            show(position: p, into: &fx)
        }
    }
}
