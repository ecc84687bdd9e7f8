/// The player's state and every rule of timing, looping and buffering, as plain value
/// logic: `AnimationPlayer` keeps one under a lock, feeds it ticks and decode results,
/// and carries out the effects (show, events, decodes) after unlocking.
///
/// Time is integer nanoseconds from the clock's target timestamps. Progress through the
/// current frame is kept in nanoseconds × 1000 so that a rate of 0.25–4 (in thousandths)
/// multiplies exactly: with a constant rate nothing is ever rounded, so a tick's frame is
/// exactly the frame the ideal schedule gives at its target time.
struct PlaybackEngine: Sendable {
    // MARK: What is played
    let info: AnimationInfo
    let frameCount: Int
    /// Display durations in nanoseconds (after the delay policy).
    private(set) var durations: [Int64]
    private var loopNanoseconds: Int64
    let frameByteCount: Int
    let outputSize: PixelSize
    let pixelFormat: PixelFormat
    var sharedKey: SharedFrameKey?

    // MARK: Configuration
    var policy: any FrameBufferPolicy
    var latePolicy: LatePolicy
    var loopOverride: LoopCount?
    private(set) var rateMilli: Int64
    var environment: PlaybackEnvironment
    let maxStepNanoseconds: Int64
    let calmDelayNanoseconds: Int64
    /// Called by the shared cache when a frame another player decodes is published.
    var sharedWaiter: (@Sendable () -> Void)?

    // MARK: Frames held
    private(set) var poster: PixelBuffer?
    /// The poster is leased from the shared cache (players of one image share it too).
    private var posterLeased = false
    private var frames = HeldFrames()
    private var leases: Set<Int> = []
    private var waiting: Set<Int> = []
    private var inFlight: (index: Int, bytes: Int)?
    private(set) var pool = FramePool(maxIdle: 2)

    // MARK: Playhead
    private(set) var status: PlaybackState = .idle
    private(set) var current: Int?
    private var pendingShow: Int?
    private var progress: Int64 = 0
    private var lastTick: Int64?
    private var lastProcessedTick: Int64?
    private var throttleNanoseconds: Int64?
    private(set) var playsCompleted = 0
    private var visible = true
    private var wasStalled = false
    private(set) var generation = 0

    // MARK: Memory pressure
    private var pressureLevel: MemoryPressureLevel = .normal
    private(set) var underPressure = false
    private var calmSince: Int64?
    private var windowChanged = false

    // MARK: Diagnostics
    private(set) var diagnostics = PlayerDiagnostics()
    private var decodeSamples: [Duration] = []
    private var decodeSampleNext = 0
    private(set) var lastReport: PlaybackTickReport?

    init(info: AnimationInfo, outputSize: PixelSize, pixelFormat: PixelFormat, configuration c: PlayerConfiguration,
         generation: Int) {
        self.info = info
        frameCount = info.frameCount
        frameByteCount = outputSize.rgbaByteCount ?? 0
        self.outputSize = outputSize
        self.pixelFormat = pixelFormat
        durations = []
        loopNanoseconds = 0
        policy = c.bufferPolicy
        latePolicy = c.latePolicy
        loopOverride = c.loopCount
        rateMilli = PlaybackEngine.rateMilli(c.rate)
        environment = c.environment
        maxStepNanoseconds = max(1, PlaybackEngine.nanoseconds(c.maxStep))
        calmDelayNanoseconds = max(0, PlaybackEngine.nanoseconds(c.pressureCalmDelay))
        self.generation = generation
        pressureLevel = c.memoryPressure?.level ?? .normal
        underPressure = pressureLevel != .normal
        setDelayPolicy(c.delayPolicy)
        updateSharedKey()
    }

    // MARK: - Settings

    static func rateMilli(_ rate: Double) -> Int64 {
        guard rate.isFinite else { return 1000 }
        return Int64((min(max(rate, 0.25), 4) * 1000).rounded())
    }

    static func nanoseconds(_ d: Duration) -> Int64 {
        let (s, atto) = d.components
        let (ns, o) = s.multipliedReportingOverflow(by: 1_000_000_000)
        return o ? (s < 0 ? .min : .max) : ns + atto / 1_000_000_000
    }

    mutating func setDelayPolicy(_ delay: DelayPolicy) {
        durations = info.frameDurations.map { raw in
            let d = delay.displayDuration(for: raw)
            // Whole nanoseconds, rounded to nearest; exact for ms, cs and µs units.
            let ns = (Int128(d.numerator) * 1_000_000_000 + Int128(d.denominator) / 2) / Int128(d.denominator)
            return Int64(min(ns, Int128(Int64.max / 4096)))
        }
        loopNanoseconds = durations.reduce(0) { min($0 + $1, Int64.max / 4096) }
    }

    mutating func setRate(_ rate: Double) { rateMilli = PlaybackEngine.rateMilli(rate) }
    var rate: Double { Double(rateMilli) / 1000 }

    mutating func updateSharedKey() {
        if policy.sharedCache != nil, let image = policy.sharedImageKey {
            sharedKey = SharedFrameKey(imageKey: image, size: outputSize, pixelFormat: pixelFormat)
        } else {
            sharedKey = nil
        }
    }

    mutating func setPolicy(_ p: any FrameBufferPolicy, into fx: inout PlaybackEffects) {
        let sameSharing = p.sharedCache === policy.sharedCache && p.sharedImageKey == policy.sharedImageKey
        if !sameSharing {
            // Frames came from elsewhere: give them all back, and drop the decode in flight.
            // The poster's pixels stay (copy on write protects them once the cache reuses its storage).
            releaseAllFrames()
            releasePosterLease()
            if inFlight != nil {
                generation += 1
                inFlight = nil
            }
        }
        policy = p
        updateSharedKey()
        schedule(into: &fx)
    }

    /// The shortest display duration at the current rate: the slowest useful tick rate.
    var preferredTickInterval: Duration {
        var shortest = max(durations.filter { $0 > 0 }.min() ?? 1_000_000, 1_000_000)
        shortest = shortest * 1000 / rateMilli
        if let t = throttleNanoseconds { shortest = max(shortest, t) }
        return .nanoseconds(max(shortest, 1_000_000))
    }

    // MARK: - Queries

    private var totalPlays: Int? { (loopOverride ?? info.loopCount).finitePlays.map { max(1, $0) } }
    private var onLastPlay: Bool { totalPlays.map { playsCompleted + 1 >= $0 } ?? false }

    func isReady(_ index: Int) -> Bool { index == 0 ? poster != nil : frames[index] != nil }
    private func buffer(_ index: Int) -> PixelBuffer? { index == 0 ? poster : frames[index] }

    private var context: FrameBufferContext {
        FrameBufferContext(frameCount: frameCount, frameByteCount: frameByteCount, underMemoryPressure: underPressure)
    }

    var windowSize: Int { policy.effectiveWindow(in: context) }

    /// The frames to keep, in the order to decode them: the window from the frame shown
    /// (or about to be), wrapping into the next play only if there is one.
    func desiredFrames() -> [Int] {
        guard frameCount > 0 else { return [] }
        let base = pendingShow ?? current ?? 0
        let w = windowSize
        var out: [Int] = []
        out.reserveCapacity(w)
        for j in 0..<w {
            let i = base + j
            if i >= frameCount {
                if onLastPlay { break }
                out.append(i % frameCount)
            } else {
                out.append(i)
            }
        }
        return out
    }

    var framesHeld: Int {
        (poster == nil ? 0 : 1) + frames.count + (inFlight == nil ? 0 : 1) + pool.idleCount
    }

    var bytesHeld: Int {
        var b = (poster?.byteCount ?? 0) + pool.idleBytes + frames.byteCount
        if let f = inFlight { b += max(f.bytes, frameByteCount) }
        return b
    }

    // MARK: - Control

    mutating func play(into fx: inout PlaybackEffects) {
        guard frameCount > 0 else { return }
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
            if current == nil && pendingShow == nil { pendingShow = 0 }
        case .idle, .stopped, .finished, .showingPoster:
            playsCompleted = 0
            pendingShow = 0
            progress = 0
        }
        status = .playing
        lastTick = nil
        lastProcessedTick = nil
        wasStalled = false
        fx.wantsTicks = true
        schedule(into: &fx)
    }

    /// Shows the poster (as soon as it is decoded) and stops animating.
    mutating func showPosterOnly(state: PlaybackState, into fx: inout PlaybackEffects) {
        status = state
        playsCompleted = 0
        progress = 0
        lastTick = nil
        fx.wantsTicks = false
        pendingShow = 0
        releaseFrames(keeping: [])
        pool.trim(to: 0)
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
        guard frameCount > 0 else { return }
        showPosterOnly(state: .stopped, into: &fx)
    }

    mutating func seek(to index: Int, into fx: inout PlaybackEffects) {
        guard frameCount > 0 else { return }
        let i = min(max(index, 0), frameCount - 1)
        pendingShow = i
        progress = 0
        lastTick = nil
        switch status {
        case .playing:
            break
        case .idle, .stopped, .finished, .showingPoster, .failed:
            status = .paused
        case .paused:
            break
        }
        if status != .playing { showPendingIfReady(into: &fx) }
        schedule(into: &fx)
    }

    /// Frees every buffer; later decode results of this generation are dropped.
    mutating func reset(into fx: inout PlaybackEffects) {
        releaseAllFrames()
        releasePosterLease()
        poster = nil
        pool = FramePool(maxIdle: 2)
        inFlight = nil
        waiting = []
        generation += 1
        status = .idle
        current = nil
        pendingShow = nil
        progress = 0
        lastTick = nil
        playsCompleted = 0
        fx.wantsTicks = false
        lastReport = nil
        noteMemory()
    }

    /// Decodes the poster without playing.
    mutating func prepare(into fx: inout PlaybackEffects) { schedule(into: &fx) }

    // MARK: - Ticks

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
        guard let b = buffer(index) else { return }
        current = index
        diagnostics.framesShown += 1
        fx.show = (b, index)
        fx.events.append(.frameShown(index: index))
    }

    private mutating func showPendingIfReady(into fx: inout PlaybackEffects) {
        if let p = pendingShow, isReady(p) {
            pendingShow = nil
            show(p, into: &fx)
        }
    }

    // MARK: - Memory pressure

    mutating func pressureChanged(to level: MemoryPressureLevel, into fx: inout PlaybackEffects) {
        pressureLevel = level
        if level != .normal {
            underPressure = true
            calmSince = nil
            if level == .critical { pool.trim(to: 0) }
            releaseFrames(keeping: Set(desiredFrames()))
            trimPool()
            noteMemory()
        }
    }

    private mutating func updatePressure(at t: Int64, into fx: inout PlaybackEffects) {
        let was = underPressure
        defer { windowChanged = was != underPressure }
        if pressureLevel != .normal {
            underPressure = true
            calmSince = nil
        } else if underPressure {
            if let since = calmSince {
                if t - since >= calmDelayNanoseconds {
                    underPressure = false
                    calmSince = nil
                }
            } else {
                calmSince = t
                if calmDelayNanoseconds == 0 { underPressure = false }
            }
        }
    }

    // MARK: - Buffers and decoding

    /// Drops frames outside `keep` (the frame shown always stays).
    private mutating func releaseFrames(keeping keep: Set<Int>) {
        for i in Array(frames.keys) where !keep.contains(i) && i != current {
            let b = frames.removeValue(forKey: i)!
            if leases.remove(i) != nil, let key = sharedKey, let cache = policy.sharedCache {
                cache.release(key, frame: i)
            } else {
                pool.give(b)
            }
        }
    }

    private mutating func releaseAllFrames() {
        for i in Array(frames.keys) {
            let b = frames.removeValue(forKey: i)!
            if leases.remove(i) != nil, let key = sharedKey, let cache = policy.sharedCache {
                cache.release(key, frame: i)
            } else {
                pool.give(b)
            }
        }
        waiting = []
    }

    private mutating func releasePosterLease() {
        // A poster still being decoded is released when its (now stale) result arrives.
        if posterLeased, poster != nil, let key = sharedKey, let cache = policy.sharedCache { cache.release(key, frame: 0) }
        posterLeased = false
    }

    /// Keeps idle buffers only while the window has room for them.
    private mutating func trimPool() {
        let used = frames.count + (inFlight == nil ? 0 : 1)
        pool.trim(to: max(0, windowSize - used))
    }

    /// Evicts frames that left the window and starts the next decode the window needs.
    mutating func schedule(into fx: inout PlaybackEffects) {
        let desired = desiredFrames()
        releaseFrames(keeping: Set(desired))
        defer {
            trimPool()
            noteMemory()
        }
        guard visible, inFlight == nil, status != .failed, frameCount > 0 else { return }
        if poster == nil {
            guard let key = sharedKey, let cache = policy.sharedCache else {
                request(0, isPoster: true, into: &fx)
                return
            }
            guard !waiting.contains(0) else { return }
            switch cache.acquire(key, frame: 0, waiter: sharedWaiter ?? {}) {
            case .ready(let b):
                poster = b
                posterLeased = true
                diagnostics.framesFromSharedCache += 1
            case .inProgress:
                waiting.insert(0)
                return
            case .decodeHere(let b):
                posterLeased = true
                inFlight = (0, b.byteCount)
                fx.requests.append(DecodeRequest(index: 0, buffer: BufferHandoff(b), generation: generation, isPoster: true,
                                                 sharedKey: key, cache: cache))
                return
            }
            if status != .playing { showPendingIfReady(into: &fx) }
        }
        guard status == .playing || pendingShow != nil else { return }
        for i in desired where !isReady(i) && !waiting.contains(i) {
            if let key = sharedKey, let cache = policy.sharedCache {
                let waiter = sharedWaiter ?? {}
                switch cache.acquire(key, frame: i, waiter: waiter) {
                case .ready(let b):
                    frames[i] = b
                    leases.insert(i)
                    diagnostics.framesFromSharedCache += 1
                    continue
                case .inProgress:
                    waiting.insert(i)
                    continue
                case .decodeHere(let b):
                    leases.insert(i)
                    inFlight = (i, b.byteCount)
                    fx.requests.append(DecodeRequest(index: i, buffer: BufferHandoff(b), generation: generation, isPoster: false,
                                                     sharedKey: key, cache: cache))
                    return
                }
            }
            request(i, isPoster: false, into: &fx)
            return
        }
        if pendingShow != nil && status != .playing { showPendingIfReady(into: &fx) }
    }

    private mutating func request(_ index: Int, isPoster: Bool, into fx: inout PlaybackEffects) {
        let handoff = BufferHandoff(pool.take())
        if pool.buffersCreated > diagnostics.buffersCreated { diagnostics.buffersCreated = pool.buffersCreated }
        inFlight = (index, handoff.byteCount)
        fx.requests.append(DecodeRequest(index: index, buffer: handoff, generation: generation, isPoster: isPoster, sharedKey: nil, cache: nil))
    }

    /// A shared frame someone else decoded was published: ask the cache again.
    mutating func sharedFramesArrived(into fx: inout PlaybackEffects) {
        waiting = []
        schedule(into: &fx)
        if status != .playing { showPendingIfReady(into: &fx) }
    }

    /// A decode finished. Shared frames were already published (or abandoned) by the player.
    mutating func decodeFinished(_ r: DecodeRequest, result: Result<PixelBuffer, AnimatedImageError>, elapsed: Duration,
                                 into fx: inout PlaybackEffects) {
        guard r.generation == generation else {
            // A reset happened meanwhile; a shared lease taken then is no longer ours to track.
            if case .success = result, let key = r.sharedKey, let cache = r.cache { cache.release(key, frame: r.index) }
            return
        }
        inFlight = nil
        recordDecodeTime(elapsed)
        switch result {
        case .success(let b):
            diagnostics.framesDecoded += 1
            if r.isPoster {
                poster = b
            } else if Set(desiredFrames()).contains(r.index) || r.index == pendingShow {
                frames[r.index] = b
            } else if r.sharedKey != nil {
                leases.remove(r.index)
                if let key = r.sharedKey, let cache = r.cache { cache.release(key, frame: r.index) }
            } else {
                pool.give(b)
            }
            if status != .playing { showPendingIfReady(into: &fx) }
            schedule(into: &fx)
        case .failure(let error):
            if r.sharedKey != nil {
                if r.isPoster { posterLeased = false } else { leases.remove(r.index) }
            }
            status = .failed
            fx.wantsTicks = false
            fx.events.append(.decodeFailed(index: r.index, error: error))
            noteMemory()
        }
    }

    private mutating func recordDecodeTime(_ d: Duration) {
        if decodeSamples.count < 64 {
            decodeSamples.append(d)
        } else {
            decodeSamples[decodeSampleNext] = d
            decodeSampleNext = (decodeSampleNext + 1) % 64
        }
        diagnostics.worstDecodeTime = max(diagnostics.worstDecodeTime, d)
        let sorted = decodeSamples.sorted()
        diagnostics.medianDecodeTime = sorted[sorted.count / 2]
    }

    private mutating func noteMemory() {
        diagnostics.framesHeld = framesHeld
        diagnostics.bytesHeld = bytesHeld
        diagnostics.peakBytesHeld = max(diagnostics.peakBytesHeld, diagnostics.bytesHeld)
    }

    private mutating func report(_ t: Int64, stalled: Bool, skipped: Int) {
        noteMemory()
        lastReport = PlaybackTickReport(targetNanoseconds: t, frameShown: current, stalled: stalled, skipped: skipped,
                                        framesHeld: diagnostics.framesHeld, bytesHeld: diagnostics.bytesHeld)
    }
}
