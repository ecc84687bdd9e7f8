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
    /// Where frames are decoded: the players' shared pool of decode threads (one per core
    /// the process may use, at most 4), unless an executor of one's own is given.
    public var executor: any DecodeExecutor
    /// The memory-pressure signal to follow, or nil to ignore pressure.
    public var memoryPressure: MemoryPressureSignal?
    /// The most time one tick may advance the animation, so that a process that was
    /// suspended does not fast-forward.
    package var maxStep: Duration = .seconds(1)
    /// How long memory pressure must have been gone before the window grows back,
    /// measured in clock time.
    package var pressureCalmDelay: Duration = .seconds(5)

    /// A configuration; every parameter defaults to the browser-like behaviour.
    public init(
        bufferPolicy: any FrameBufferPolicy = AheadBufferPolicy.oneAhead,
        latePolicy: LatePolicy = .stall,
        delayPolicy: DelayPolicy = .default,
        loopCount: LoopCount? = nil,
        rate: Double = 1,
        environment: PlaybackEnvironment = .standard,
        executor: (any DecodeExecutor)? = nil,
        memoryPressure: MemoryPressureSignal? = .shared
    ) {
        self.bufferPolicy = bufferPolicy
        self.latePolicy = latePolicy
        self.delayPolicy = delayPolicy
        self.loopCount = loopCount
        self.rate = rate
        self.environment = environment
        self.executor = executor ?? DecodeWorkerPool.shared
        self.memoryPressure = memoryPressure
    }
}
