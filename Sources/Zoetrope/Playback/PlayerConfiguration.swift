/// How an `AnimationPlayer` plays. Every field has the browser-like default.
public struct PlayerConfiguration: Sendable {
    /// Which decoded frames are kept; swappable later with `setBufferPolicy`.
    public var bufferPolicy: any FrameBufferPolicy
    /// What happens when a frame is late.
    public var latePolicy: LatePolicy
    /// Raw durations to displayed durations.
    public var delayPolicy: DelayPolicy
    /// Total plays; nil plays what the file says.
    public var loopCount: LoopCount?
    /// Speed, 0.25 to 4.
    public var rate: Double
    /// The order frames are played in: forward (the default), reverse, bounce, reverse bounce.
    public var playbackMode: PlaybackMode = .forward
    /// Reduce motion, auto-play, low power; read when playback starts (`setEnvironment` changes it at once).
    public var environment: PlaybackEnvironment
    /// Where frames are decoded.
    public var executor: any DecodeExecutor
    /// The memory-pressure signal to follow, or nil to ignore pressure.
    public var memoryPressure: MemoryPressureSignal?
    /// The most time one tick may advance the animation, so that a process that was
    /// suspended does not fast-forward.
    public var maxStep: Duration
    /// How long memory pressure must have been gone before the window grows back,
    /// measured in clock time.
    public var pressureCalmDelay: Duration

    /// A configuration; every parameter defaults to the browser-like behaviour.
    public init(
        bufferPolicy: any FrameBufferPolicy = AheadBufferPolicy.oneAhead,
        latePolicy: LatePolicy = .stall,
        delayPolicy: DelayPolicy = .default,
        loopCount: LoopCount? = nil,
        rate: Double = 1,
        environment: PlaybackEnvironment = .standard,
        executor: any DecodeExecutor = DecodeWorkerPool.shared,
        memoryPressure: MemoryPressureSignal? = .shared,
        maxStep: Duration = .seconds(1),
        pressureCalmDelay: Duration = .seconds(5)
    ) {
        self.bufferPolicy = bufferPolicy
        self.latePolicy = latePolicy
        self.delayPolicy = delayPolicy
        self.loopCount = loopCount
        self.rate = rate
        self.environment = environment
        self.executor = executor
        self.memoryPressure = memoryPressure
        self.maxStep = maxStep
        self.pressureCalmDelay = pressureCalmDelay
    }
}
