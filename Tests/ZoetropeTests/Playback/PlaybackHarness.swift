import ZoetropeTesting
@testable import Zoetrope

/// A player on a manual clock with simulated decoding: everything deterministic.
struct PlaybackHarness {
    let clock = ManualClock()
    let executor: SimulatedDecodeExecutor
    let display = RecordingDisplay()
    let player: AnimationPlayer
    let source: any FrameSource
    let attachment: ClockSubscription

    /// `cost(frame)` is each decode's simulated time.
    init(
        source: any FrameSource, configuration: PlayerConfiguration = PlayerConfiguration(),
        workers: Int = 1, cost: @escaping @Sendable (Int) -> Duration = { _ in .zero }
    ) {
        let executor = SimulatedDecodeExecutor(workerCount: workers) { job in cost(job.frameIndex) }
        var c = configuration
        c.executor = executor
        if c.memoryPressure === MemoryPressureSignal.shared { c.memoryPressure = nil }
        self.executor = executor
        self.source = source
        attachment = executor.attach(to: clock)
        player = AnimationPlayer(source: source, clock: clock, display: display, configuration: c)
    }

    /// Ticks `pattern` from 0 up to (not including) `seconds`, calling `check` after each
    /// tick with the tick time in ns and the player.
    @discardableResult
    func run(
        _ pattern: RefreshPattern = .fixed(hertz: 60), from start: Int64 = 0, until end: Int64,
        check: (Int64, AnimationPlayer) -> Void = { _, _ in }
    ) -> Int {
        var k = pattern.tickCount(before: start)
        var n = 0
        while true {
            let t = pattern.nanoseconds(ofTick: k)
            if t >= end { break }
            clock.tick(atNanoseconds: t)
            check(t, player)
            k += 1
            n += 1
        }
        return n
    }
}

/// Nanoseconds in `s` seconds.
func ns(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }
