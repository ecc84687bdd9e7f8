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

        if current == nil || pendingShow != nil {
            let target = pendingShow ?? 0
            if isReady(target) {
                pendingShow = nil
                show(target, into: &fx)
                progress = 0
                wasStalled = false
                if frameCount == 1 { finish(into: &fx) }
            } else {
                stalled = true
                noteStall(waitingFor: target, into: &fx)
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
        if cur == frameCount - 1 && onLastPlay {
            progress = d
            finish(into: &fx)
            return
        }
        let next = (cur + 1) % frameCount
        if isReady(next) {
            progress -= d
            if next == 0 { completeLoop(into: &fx) }
            show(next, into: &fx)
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
        // More than a whole loop behind: restart timing instead of skipping the loop.
        if loopNanoseconds > 0, progress - durations[cur] * 1000 >= loopNanoseconds * 1000 {
            progress = durations[cur] * 1000
        }
        var steps = 0
        var finished = false
        while steps <= frameCount {
            let d = durations[cur] * 1000
            guard progress >= d else { break }
            if cur == frameCount - 1 && onLastPlay {
                progress = d
                finished = true
                break
            }
            let next = (cur + 1) % frameCount
            guard isReady(next) else {
                stalled = true
                noteStall(waitingFor: next, into: &fx)
                break
            }
            progress -= d
            if next == 0 { completeLoop(into: &fx) }
            cur = next
            steps += 1
        }
        if steps > 0 {
            skipped = steps - 1
            diagnostics.skippedFrames += skipped
            show(cur, into: &fx)
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

    private mutating func show(_ index: Int, into fx: inout PlaybackEffects) {
        guard let b = store.buffer(index) else { return }
        current = index
        diagnostics.framesShown += 1
        fx.show = (b, index)
        fx.events.append(.frameShown(index: index))
    }

    /// Shows the frame a seek or stop asked for, if it is decoded.
    mutating func showPendingIfReady(into fx: inout PlaybackEffects) {
        if let p = pendingShow, isReady(p) {
            pendingShow = nil
            show(p, into: &fx)
        }
    }
}
