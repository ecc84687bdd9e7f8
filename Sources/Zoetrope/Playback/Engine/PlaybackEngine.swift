/// The player's state and every rule of timing, looping and buffering, as plain value
/// logic: `AnimationPlayer` keeps one under a lock, feeds it ticks and decode results,
/// and carries out the effects (show, events, decodes) after unlocking.
///
/// Time is integer nanoseconds from the clock's target timestamps. Progress through the
/// current frame is kept in nanoseconds × 1000 so that a rate of 0.25–4 (in thousandths)
/// multiplies exactly: with a constant rate nothing is ever rounded, so a tick's frame is
/// exactly the frame the ideal schedule gives at its target time.
///
/// The engine is split by concern: this file holds its state, settings and the window it
/// wants; `+Control` play/pause/stop/seek/reset; `+Ticks` the clock's ticks and timing;
/// `+Decoding` what to decode next and what to do with results; `+Pressure` memory
/// pressure; `+Diagnostics` counters. Frames themselves live in a `FrameStore`.
struct PlaybackEngine: Sendable {
    // MARK: What is played
    /// Grows while the source may grow (`+Growth`); fixed otherwise.
    var info: AnimationInfo
    var frameCount: Int
    /// More frames may still arrive (a source still downloading, `+Growth`): the player
    /// stalls at the last frame instead of looping or finishing.
    var mayGrow = false
    /// Display durations in nanoseconds (after the delay policy).
    private(set) var durations: [Int64]
    var loopNanoseconds: Int64
    let frameByteCount: Int
    let outputSize: PixelSize
    let pixelFormat: PixelFormat

    // MARK: Configuration
    private(set) var policy: any FrameBufferPolicy
    /// Where frames come from: the policy's `frameSharing`, named anew by `load`.
    private(set) var sharing: FrameSharing?
    var latePolicy: LatePolicy
    private(set) var delayPolicy: DelayPolicy
    var loopOverride: LoopCount?
    private(set) var rateMilli: Int64
    var environment: PlaybackEnvironment
    /// The order frames are played in (`+Modes`).
    var mode: PlaybackMode
    /// Names this image in a shared cache when the policy does not (`FrameSharing.imageKey` nil).
    var imageIdentity: SharedImageName
    let maxStepNanoseconds: Int64
    let calmDelayNanoseconds: Int64

    // MARK: Frames held
    var store: FrameStore
    /// Frame 0 as the image decoded it (`AnimationPlayer(image:)`), held again after a reset.
    var givenPoster: PixelBuffer?

    // MARK: Playhead
    var status: PlaybackState = .idle
    var current: Int?
    /// `current`'s place in the play order (`+Modes`): frame indexes repeat in a bounce.
    var position = 0
    /// The place in the play order a play, seek or stop asked for; `pendingShow` is its frame.
    var pendingPosition: Int?
    /// Time already spent in the pending frame (a seek to a time), in progress units.
    var pendingProgress: Int64 = 0
    var progress: Int64 = 0
    var lastTick: Int64?
    var lastProcessedTick: Int64?
    var throttleNanoseconds: Int64?
    /// The play under way (or held on the poster by the environment) was asked for by
    /// `autoPlay()`, not `play()`: turning auto-play off holds it.
    var playedByAutoPlay = false
    var playsCompleted = 0
    var visible = true
    var wasStalled = false
    /// Bumped whenever decodes in flight become stale; their results are then ignored.
    var generation = 0

    // MARK: Memory pressure
    var pressureLevel: MemoryPressureLevel = .normal
    var underPressure = false
    var calmSince: Int64?
    var windowChanged = false

    // MARK: Diagnostics
    var diagnostics = PlayerDiagnostics()
    var decodeSamples: [Duration] = []
    var decodeSampleNext = 0
    var lastReport: PlaybackTickReport?

    init(
        info: AnimationInfo, outputSize: PixelSize, pixelFormat: PixelFormat, configuration c: PlayerConfiguration,
        generation: Int, imageIdentity: SharedImageName
    ) {
        self.info = info
        frameCount = info.frameCount
        frameByteCount = outputSize.frameByteCount(depth: pixelFormat.channelDepth) ?? 0
        self.outputSize = outputSize
        self.pixelFormat = pixelFormat
        durations = []
        loopNanoseconds = 0
        policy = c.bufferPolicy
        sharing = c.bufferPolicy.frameSharing
        mode = c.playbackMode
        self.imageIdentity = imageIdentity
        store = FrameStore(
            supply: PlaybackEngine.supply(
                for: sharing, size: outputSize, pixelFormat: pixelFormat,
                imageIdentity: imageIdentity),
            frameByteCount: frameByteCount)
        latePolicy = c.latePolicy
        delayPolicy = c.delayPolicy
        loopOverride = c.loopCount
        rateMilli = PlaybackEngine.rateMilli(c.rate)
        environment = c.environment
        maxStepNanoseconds = max(1, c.maxStep.wholeNanoseconds)
        calmDelayNanoseconds = max(0, c.pressureCalmDelay.wholeNanoseconds)
        self.generation = generation
        pressureLevel = c.memoryPressure?.level ?? .normal
        underPressure = pressureLevel != .normal
        setDelayPolicy(c.delayPolicy)
    }

    /// Where frames come from under `sharing`: a shared cache's frames of this image, or
    /// the player's own pool.
    static func supply(
        for sharing: FrameSharing?, size: PixelSize, pixelFormat: PixelFormat,
        imageIdentity: SharedImageName
    ) -> any FrameSupply {
        guard let sharing else { return FramePool(maxIdle: 2) }
        return SharedFrameSupply(
            cache: sharing.cache, name: sharing.imageKey.map { .known($0) } ?? imageIdentity,
            size: size, pixelFormat: pixelFormat)
    }

    // MARK: - Settings

    static func rateMilli(_ rate: Double) -> Int64 {
        guard rate.isFinite else { return 1000 }
        return Int64((min(max(rate, 0.25), 4) * 1000).rounded())
    }

    mutating func setDelayPolicy(_ delay: DelayPolicy) {
        delayPolicy = delay
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

    /// Swaps the buffer policy. When frames come from elsewhere under the new one, every
    /// frame goes back to the old supply and the decode in flight is dropped.
    mutating func setPolicy(_ p: any FrameBufferPolicy, into fx: inout PlaybackEffects) {
        let newSharing = p.frameSharing
        if store.replaceSupply(
            with: PlaybackEngine.supply(
                for: newSharing, size: outputSize, pixelFormat: pixelFormat,
                imageIdentity: imageIdentity))
        {
            generation += 1
        }
        policy = p
        sharing = newSharing
        schedule(into: &fx)
    }

    /// The slowest tick that lands on every frame change at the current rate: the greatest
    /// common divisor of the display durations (100 and 150 ms → 50 ms), but never below
    /// 10 ms or the shortest duration, whichever is less (durations with no useful common
    /// divisor, such as 1/3 s and 100 ms, tick every 10 ms, within 10 ms of each change).
    var preferredTickInterval: Duration {
        let positive = durations.filter { $0 > 0 }
        let shortestDuration = max(positive.min() ?? 1_000_000, 1_000_000)
        let common = positive.reduce(positive.first ?? shortestDuration) { FrameDuration.gcd($0, $1) }
        var shortest = max(common, min(shortestDuration, 10_000_000), 1_000_000)
        shortest = shortest * 1000 / rateMilli
        if let t = throttleNanoseconds { shortest = max(shortest, t) }
        return .nanoseconds(max(shortest, 1_000_000))
    }

    // MARK: - Queries

    var totalPlays: Int? { (loopOverride ?? info.loopCount).finitePlays.map { max(1, $0) } }
    var onLastPlay: Bool { totalPlays.map { playsCompleted + 1 >= $0 } ?? false }

    func isReady(_ index: Int) -> Bool { store.isReady(index) }
    var poster: PixelBuffer? { store.poster }

    private var context: FrameBufferContext {
        FrameBufferContext(frameCount: frameCount, frameByteCount: frameByteCount, underMemoryPressure: underPressure)
    }

    var windowSize: Int { policy.effectiveWindow(in: context) }

    /// The frames to keep, in the order to decode them: the window from the place shown (or
    /// about to be) onwards in play order (`playbackMode`), wrapping into the next play only
    /// if there is one: the first `windowSize` different frames met. A bounce visits frames
    /// twice; each is kept once (so `.keepAll` keeps every frame in every mode).
    func desiredFrames() -> [Int] {
        guard frameCount > 0 else { return [] }
        var p = pendingPosition ?? (current == nil ? 0 : position)
        let last = lastPosition
        let w = windowSize
        var out: [Int] = []
        out.reserveCapacity(w)
        // Only a bounce meets a frame twice; forward and reverse never repeat within a play.
        var seen: Set<Int>? = bouncing ? Set(minimumCapacity: w) : nil
        var steps = 0
        if mayGrow && reversedOrder { return [] }
        while out.count < w, steps <= cycleLength {
            // Nothing past the frames that have arrived, and no wrap before the file is complete.
            if mayGrow && p >= frameCount { break }
            if p > last {
                if onLastPlay { break }
                p = 0
            }
            let f = frame(at: p)
            if seen?.insert(f).inserted ?? true { out.append(f) }
            p += 1
            steps += 1
        }
        return out
    }

    var framesHeld: Int { store.framesHeld }
    var bytesHeld: Int { store.bytesHeld }
}

extension PlaybackEngine {
    /// Takes over the settings of the engine that played the previous image (`load`):
    /// buffer, late, delay and loop policies, playback mode, environment and rate. A shared
    /// buffer policy names the new image: by `sharedImageKey` if given, else by the new
    /// image's own identity (never the old image's key, so the old frames cannot show).
    mutating func adoptSettings(of old: PlaybackEngine, sharedImageKey: String?) {
        if let oldSharing = old.sharing {
            sharing = FrameSharing(cache: oldSharing.cache, imageKey: sharedImageKey)
            policy = old.policy.sharingImage(named: sharedImageKey)
        } else {
            sharing = nil
            policy = old.policy
        }
        mode = old.mode
        store = FrameStore(
            supply: PlaybackEngine.supply(
                for: sharing, size: outputSize, pixelFormat: pixelFormat,
                imageIdentity: imageIdentity),
            frameByteCount: frameByteCount)
        store.waiter = old.store.waiter
        latePolicy = old.latePolicy
        setDelayPolicy(old.delayPolicy)
        loopOverride = old.loopOverride
        environment = old.environment
        setRate(old.rate)
    }
}
