/// The shared player: plays any `FrameSource` on any `FrameClock`, keeping the frames a
/// `FrameBufferPolicy` asks for, decoding them ahead on a `DecodeExecutor`, and showing
/// them on an `AnimationDisplay` (on the main actor, in order; see `AnimationDisplay`).
///
/// Timing follows the clock's target timestamps exactly (see `LatePolicy` for late
/// frames); durations come from the `DelayPolicy`; loops from the file unless overridden.
/// All methods are thread-safe. The clock's thread only swaps in buffers decoded elsewhere.
public final class AnimationPlayer: Player {
    struct Box: Sendable {
        var engine: PlaybackEngine
        var source: any FrameSource
        var subscription: ClockSubscription?
        var pressureObservation: Observation?
        /// Bumped by stop, load, prepareForReuse and setDisplay: frames of older epochs
        /// still on their way to the display are dropped.
        var displayEpoch = 0
        /// The session behind a source still arriving (`init(incrementalSource:)`), until
        /// it completes or fails.
        var growth: SourceGrowth?
    }
    let box: Locked<Box>
    private let delivery: DisplayDelivery
    private let observers = ObserverList<PlayerEvent>()
    /// The clock this player ticks on (`TimerClock.shared` unless one was given).
    package let clock: any FrameClock
    private let executor: any DecodeExecutor
    private let pressure: MemoryPressureSignal?
    let configuration: PlayerConfiguration
    /// Under a policy that keeps every frame, the bulk run the decode jobs take frames from in order.
    let bulkRun = Locked(BulkRunSlot())
    /// This player's identity for executor fairness.
    package let id: Int

    private static let ids = SequenceCounter()

    /// A player of `source`, ticking on `clock` (by default the one `TimerClock.shared`
    /// every such player shares), showing on `display` (held weakly, see `setDisplay(_:)`).
    /// Nothing is decoded until `prepare()`, `play()` or `seek(toFrame:)`.
    public convenience init(
        source: any FrameSource, clock: any FrameClock = TimerClock.shared,
        display: (any AnimationDisplay)? = nil, configuration: PlayerConfiguration = PlayerConfiguration()
    ) {
        self.init(source: source, clock: clock, display: display, configuration: configuration, imageIdentity: nil)
    }

    /// `imageIdentity` names the image in a shared cache when the policy gives no key (an
    /// `AnimatedImage`'s bytes and options); nil: the source object itself.
    init(
        source: any FrameSource, clock: any FrameClock, display: (any AnimationDisplay)?,
        configuration: PlayerConfiguration, imageIdentity: SharedImageName?
    ) {
        id = AnimationPlayer.ids.next()
        self.clock = clock
        executor = configuration.executor
        pressure = configuration.memoryPressure
        self.configuration = configuration
        let engine = PlaybackEngine(
            info: source.info, outputSize: source.outputSize, pixelFormat: source.options.pixelFormat,
            configuration: configuration, generation: 0,
            imageIdentity: imageIdentity ?? AnimationPlayer.identity(of: source))
        box = Locked(Box(engine: engine, source: source))
        delivery = DisplayDelivery(display: display)
        installCallbacks()
    }

    private func installCallbacks() {
        let waiter: @Sendable () -> Void = { [weak self] in self?.sharedFramesArrived() }
        let pressureObservation = pressure?.observe { [weak self] level in self?.pressureChanged(level) }
        box.withLock { b in
            b.engine.store.waiter = waiter
            b.pressureObservation = pressureObservation
        }
    }

    deinit {
        bulkRun.withLock { $0.end() }
        box.withLock { b in
            var fx = PlaybackEffects()
            b.engine.reset(into: &fx)
            b.subscription?.cancel()
            b.pressureObservation?.cancel()
        }
    }

    // MARK: - Reading

    /// The animation being played.
    public var info: AnimationInfo { box.withLock { $0.engine.info } }
    /// Where the player is.
    public var state: PlaybackState { box.withLock { $0.engine.status } }
    /// The frame on the display, or nil before any is shown.
    public var currentFrameIndex: Int? { box.withLock { $0.engine.current } }
    /// Playback speed, 0.25 to 4 (values outside are clamped).
    public var rate: Double { box.withLock { $0.engine.rate } }
    /// Plays completed since playback started.
    public var playsCompleted: Int { box.withLock { $0.engine.playsCompleted } }
    /// The first frame, once decoded.
    public var poster: PixelBuffer? { box.withLock { $0.engine.poster } }
    /// The buffer policy in use.
    package var bufferPolicy: any FrameBufferPolicy { box.withLock { $0.engine.policy } }
    /// Frames kept now, counting the one shown (two under memory pressure).
    package var windowSize: Int { box.withLock { $0.engine.windowSize } }
    /// Whether memory pressure currently holds the window at two frames.
    package var isUnderMemoryPressure: Bool { box.withLock { $0.engine.underPressure } }
    /// What the last tick did.
    package var lastTickReport: PlaybackTickReport? { box.withLock { $0.engine.lastReport } }
    package var diagnostics: PlayerDiagnostics {
        var d = box.withLock { $0.engine.diagnostics }
        d.framesSkippedByDisplay = delivery.skippedCount
        return d
    }
    /// The display frames go to, held weakly (nil once it is freed): a view may own its
    /// player and be its display without the two keeping each other alive.
    public var display: (any AnimationDisplay)? { delivery.display }
    /// Main-actor hand-overs (hops) made so far, for tests.
    package var displayHopCount: Int { delivery.hopCount }

    // MARK: - Control

    /// Starts or resumes, honouring the environment.
    public func play() { perform { $0.play(into: &$1) } }

    /// Plays if the environment allows auto-play (and motion), else shows the poster.
    public func autoPlay() { perform { $0.autoPlay(into: &$1) } }

    /// Holds the frame shown.
    public func pause() { perform { $0.pause(into: &$1) } }
    /// Back to the poster; the next `play()` starts over.
    public func stop() { perform(newDisplayEpoch: true) { $0.stop(into: &$1) } }
    /// Shows frame `index` (when decoded) and continues from it.
    public func seek(toFrame index: Int) { perform { $0.seek(to: index, into: &$1) } }
    /// Decodes the poster now, so that it can show at once.
    public func prepare() { perform { $0.prepare(into: &$1) } }

    /// Frees every buffer and detaches from the clock; the player can be loaded again.
    public func prepareForReuse() {
        perform(newDisplayEpoch: true) { $0.reset(into: &$1) }
    }

    /// Switches to another image and leaves the player idle (call `play()`, `autoPlay()` or
    /// `prepare()` next). Everything held for the old image is freed first; the policies
    /// (buffer, late, delay, loops), environment and rate set so far carry over.
    ///
    /// Under a `SharedBufferPolicy` the new image's frames are shared under `sharedImageKey`
    /// when given, else under the new image's own identity (`load(_ image:sharedImageKey:)`
    /// names an `AnimatedImage` by its bytes and options): never under the old image's key,
    /// and nothing of the old image is shown after `load` returns.
    public func load(_ source: any FrameSource, sharedImageKey: String? = nil) {
        load(source, sharedImageKey: sharedImageKey, imageIdentity: nil)
    }

    func load(_ source: any FrameSource, sharedImageKey: String?, imageIdentity: SharedImageName?) {
        let (fx, epoch) = box.withLock { b -> (PlaybackEffects, Int) in
            var fx = PlaybackEffects()
            b.growth = nil
            replaceEngine(
                in: &b, source: source, sharedImageKey: sharedImageKey,
                imageIdentity: imageIdentity ?? AnimationPlayer.identity(of: source), into: &fx)
            apply(&fx, to: &b)
            return (fx, b.displayEpoch)
        }
        carryOut(fx, epoch: epoch)
    }

    /// Frees everything held for the image played so far and starts a new engine on
    /// `source`, idle, with the settings of the old one.
    func replaceEngine(
        in b: inout Box, source: any FrameSource, sharedImageKey: String?, imageIdentity: SharedImageName,
        into fx: inout PlaybackEffects
    ) {
        b.engine.reset(into: &fx)
        var engine = PlaybackEngine(
            info: source.info, outputSize: source.outputSize,
            pixelFormat: source.options.pixelFormat, configuration: configuration,
            generation: b.engine.generation + 1, imageIdentity: imageIdentity)
        engine.adoptSettings(of: b.engine, sharedImageKey: sharedImageKey)
        b.engine = engine
        b.source = source
        b.displayEpoch += 1
    }

    /// Changes the speed from the next tick.
    public func setRate(_ rate: Double) {
        perform { e, _ in e.setRate(rate) }
        box.withLock { b in b.subscription?.updatePreferredInterval(b.engine.preferredTickInterval) }
    }

    /// Swaps the buffer policy; frames outside the new window are freed at once.
    public func setBufferPolicy(_ policy: any FrameBufferPolicy) {
        perform { $0.setPolicy(policy, into: &$1) }
    }

    /// Swaps the late policy from the next tick.
    package func setLatePolicy(_ policy: LatePolicy) { perform { e, _ in e.latePolicy = policy } }
    /// Overrides the file's loop count (nil: the file's).
    package func setLoopCount(_ loops: LoopCount?) { perform { e, _ in e.loopOverride = loops } }
    /// Changes the delay policy from the next frame.
    package func setDelayPolicy(_ policy: DelayPolicy) { perform { e, _ in e.setDelayPolicy(policy) } }
    /// Applies `environment` at once. A playing player turns to its poster when reduce
    /// motion, low power with `.poster`, or (when `autoPlay()` started it) auto-play off
    /// asks for that, and takes a new low-power throttle from the next tick; a player held
    /// on its poster by the environment plays again, from the first frame, once the
    /// environment allows it. A paused, stopped or finished player only keeps it for the
    /// next `play()` or `autoPlay()`.
    public func setEnvironment(_ environment: PlaybackEnvironment) {
        perform { $0.setEnvironment(environment, into: &$1) }
        box.withLock { b in b.subscription?.updatePreferredInterval(b.engine.preferredTickInterval) }
    }

    /// Sends frames to `display` from now on (nil: to no display); frames on their way to
    /// the previous display are dropped. The player holds `display` weakly: keep it alive
    /// elsewhere (a view is kept by its window). Once it is freed the player stops.
    public func setDisplay(_ display: (any AnimationDisplay)?) {
        box.withLock { b in
            b.displayEpoch += 1
            delivery.setDisplay(display, epoch: b.displayEpoch)
        }
        delivery.refreshVisibilityIfOnMain()
    }

    /// Calls `observer` for every event until the returned observation is cancelled.
    public func observe(_ observer: @escaping @Sendable (PlayerEvent) -> Void) -> Observation {
        observers.add(observer)
    }

    // MARK: - Machinery

    func perform(newDisplayEpoch: Bool = false, _ body: (inout PlaybackEngine, inout PlaybackEffects) -> Void) {
        let (fx, epoch) = box.withLock { b -> (PlaybackEffects, Int) in
            var fx = PlaybackEffects()
            if newDisplayEpoch { b.displayEpoch += 1 }
            body(&b.engine, &fx)
            apply(&fx, to: &b)
            return (fx, b.displayEpoch)
        }
        carryOut(fx, epoch: epoch)
    }

    /// Subscribes to or leaves the clock, under the lock so that racing calls agree.
    func apply(_ fx: inout PlaybackEffects, to b: inout Box) {
        guard let wants = fx.wantsTicks else { return }
        if wants, b.subscription == nil {
            b.subscription = clock.subscribe(preferredInterval: b.engine.preferredTickInterval) { [weak self] tick in
                self?.handleTick(tick)
            }
        } else if !wants, let s = b.subscription {
            s.cancel()
            b.subscription = nil
        }
    }

    private func handleTick(_ tick: FrameTick) {
        // The display was freed (a view that owned this player and was its display, say):
        // nothing can be seen any more, so stop, which leaves the clock.
        // Said as an event, so that a display that was let go by mistake is not silence.
        if delivery.displayIsGone {
            return perform {
                $0.stop(into: &$1)
                $1.events.append(.displayReleased)
            }
        }
        if isFollowingSource { followSource() }
        let visible = delivery.isVisible()
        perform { $0.tick(at: tick.targetNanoseconds, visible: visible, into: &$1) }
    }

    private func sharedFramesArrived() { perform { $0.sharedFramesArrived(into: &$1) } }

    private func pressureChanged(_ level: MemoryPressureLevel) {
        perform { $0.pressureChanged(to: level, into: &$1) }
    }

    /// Shows, notifies and starts decodes, outside the lock.
    func carryOut(_ fx: PlaybackEffects, epoch: Int) {
        delivery.deliver(fx.show, epoch: epoch)
        observers.deliver(fx.events)
        for r in fx.requests { submit(r) }
    }

    private func submit(_ request: DecodeRequest) {
        // A source still arriving decodes one frame at a time: a bulk run needs the frame count.
        let (source, keepsAll) = box.withLock { ($0.source, $0.engine.policy.keepsEveryFrame && $0.growth == nil) }
        let format = source.info.format
        let bulkRun = bulkRun
        if !keepsAll { bulkRun.withLock { $0.end() } }
        let job = DecodeJob(frameIndex: request.index, source: source, ownerID: id) { [weak self] in
            var buffer = request.buffer.take()
            let clock = ContinuousClock()
            let start = clock.now
            let result: Result<PixelBuffer, AnimatedImageError>
            do {
                if keepsAll {
                    try AnimationPlayer.decodeInBulk(request.index, of: source, into: &buffer, run: bulkRun)
                } else {
                    try source.decodeFrame(at: request.index, into: &buffer)
                }
                result = .success(buffer)
            } catch let error as AnimatedImageError {
                result = .failure(error)
            } catch {
                result = .failure(.codecFailure(format: format, library: "FrameSource", message: "\(error)"))
            }
            let elapsed = start.duration(to: clock.now)
            // Publish before taking our own lock: a shared cache wakes other players, who lock themselves.
            request.outlet.publish(result)
            guard let self else {
                if case .success = result { request.outlet.discard() }
                return
            }
            self.perform { $0.decodeFinished(request, result: result, elapsed: elapsed, into: &$1) }
        }
        executor.submit(job)
    }
}
