import Zoetrope
import ZoetropeTesting

/// One simulated run of the player, tick by tick: what `zoetrope trace` prints.
struct Trace {
    struct Tick {
        var t: Int64
        var frame: Int?
        var stalled: Bool
        var skipped: Int
        var framesHeld: Int
        var bytesHeld: Int
        /// With `--arrival`: bytes received and frames complete by this tick.
        var arrived: (bytes: Int, frames: Int)?
        /// The decodes that failed during this tick.
        var failures: [Failure] = []
    }
    /// A frame the player could not decode (`PlayerEvent.decodeFailed`).
    struct Failure {
        var frame: Int
        var error: AnimatedImageError
    }
    var ticks: [Tick] = []
    /// Every decode failure, in order.
    var failures: [Failure] { ticks.flatMap(\.failures) }
    var diagnostics = PlayerDiagnostics()
    /// Whether the file arrived at a simulated rate (`--arrival`).
    var simulatesArrival = false

    /// Plays `source` on a manual clock whose decodes take `settings.decodeCost` of simulated time.
    static func run(source: any FrameSource, settings s: TraceCommand.Settings) -> Trace {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: s.decodeCost)
        let attachment = executor.attach(to: clock)
        defer { attachment.cancel() }
        let player = AnimationPlayer(source: source, clock: clock, configuration: configuration(s, executor: executor))
        return run(player, clock: clock, settings: s, end: s.durationNs ?? defaultEnd(source.info, s, downloadNs: 0))
    }

    /// Plays `arrival`'s file as it arrives at its rate: before each tick, the bytes due
    /// by then are appended to an incremental session, which is finished with the last byte.
    static func run(arrival: TraceArrival, settings s: TraceCommand.Settings) -> Trace {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: s.decodeCost)
        let attachment = executor.attach(to: clock)
        defer { attachment.cancel() }
        let player = AnimationPlayer(
            incrementalSource: arrival.session, clock: clock,
            configuration: configuration(s, executor: executor))
        let end = s.durationNs ?? defaultEnd(arrival.wholeInfo, s, downloadNs: arrival.downloadNanoseconds)
        var trace = run(player, clock: clock, settings: s, end: end, beforeTick: { arrival.deliver(until: $0) })
        trace.simulatesArrival = true
        return trace
    }

    static func configuration(_ s: TraceCommand.Settings, executor: SimulatedDecodeExecutor) -> PlayerConfiguration {
        PlayerConfiguration(
            bufferPolicy: s.policy, latePolicy: s.late, loopCount: s.loops, rate: s.rate,
            executor: executor, memoryPressure: nil)
    }

    /// Default length: the download, then one play at the chosen rate; at least 0.1 s, at most 60 s.
    static func defaultEnd(_ info: AnimationInfo, _ s: TraceCommand.Settings, downloadNs: Int64) -> Int64 {
        let onePlay = info.displayDurations().reduce(.zero, +)
        let onePlayNs = Int64(min(onePlay.seconds * 1e9 / s.rate, 1e11))
        return min(max(downloadNs + onePlayNs, 100_000_000), 60_000_000_000)
    }

    /// Ticks `player` on `clock` up to `end`; `beforeTick` runs before each tick and says
    /// what has arrived by then.
    private static func run(
        _ player: AnimationPlayer, clock: ManualClock, settings s: TraceCommand.Settings, end: Int64,
        beforeTick: (Int64) -> (bytes: Int, frames: Int)? = { _ in nil }
    ) -> Trace {
        let display = HeadlessDisplay()
        display.setAnimation(player)
        // Failures arrive on the thread that decodes: here, the clock's (simulated decodes).
        let failed = Locked<[Failure]>([])
        let observation = player.observe { event in
            if case .decodeFailed(let index, let error) = event { failed.withLock { $0.append(Failure(frame: index, error: error)) } }
        }
        defer { observation.cancel() }
        var trace = Trace()
        var k = 0
        while true {
            let t = s.pattern.nanoseconds(ofTick: k)
            if t >= end { break }
            if let hide = s.hideAt {
                display.setVisible(!(t >= hide && t < (s.showAt ?? .max)))
            }
            let arrived = beforeTick(t)
            // As an application does after appending: new frames start decoding before the tick.
            if arrived != nil { player.sourceDidChange() }
            clock.tick(atNanoseconds: t)
            let d = player.diagnostics
            if let r = player.lastTickReport, r.targetNanoseconds == t {
                trace.ticks.append(
                    Tick(
                        t: t, frame: r.frameShown, stalled: r.stalled, skipped: r.skipped,
                        framesHeld: r.framesHeld, bytesHeld: r.bytesHeld, arrived: arrived))
            } else {
                // The player is not ticking (finished or showing the poster): nothing changes.
                trace.ticks.append(
                    Tick(
                        t: t, frame: player.currentFrameIndex, stalled: false, skipped: 0,
                        framesHeld: d.framesHeld, bytesHeld: d.bytesHeld, arrived: arrived))
            }
            trace.ticks[trace.ticks.count - 1].failures = failed.withLock { f in
                defer { f = [] }
                return f
            }
            k += 1
        }
        trace.diagnostics = player.diagnostics
        player.prepareForReuse()
        return trace
    }

    static func seconds(_ ns: Int64) -> Double { Double(ns) / 1e9 }

    func json(source: String, frameCount: Int) -> JSONValue {
        .object([
            ("source", .string(source)),
            ("frameCount", .int(frameCount)),
            (
                "ticks",
                .array(
                    ticks.map { t in
                        var fields: [(String, JSONValue)] = [
                            ("t", .double(Trace.seconds(t.t))),
                            ("frame", t.frame.map { .int($0) } ?? .null),
                            ("stalled", .bool(t.stalled)),
                            ("skipped", .int(t.skipped)),
                            ("framesHeld", .int(t.framesHeld)),
                            ("bytesHeld", .int(t.bytesHeld)),
                        ]
                        if let a = t.arrived { fields += [("bytesReceived", .int(a.bytes)), ("framesArrived", .int(a.frames))] }
                        if !t.failures.isEmpty {
                            fields.append(
                                (
                                    "decodeFailed",
                                    .array(
                                        t.failures.map { f in
                                            .object([("frame", .int(f.frame)), ("error", .string(f.error.description))])
                                        })
                                ))
                        }
                        return .object(fields)
                    })
            ),
            (
                "summary",
                .object([
                    ("framesShown", .int(diagnostics.framesShown)),
                    ("stalls", .int(diagnostics.stalledTicks)),
                    ("skips", .int(diagnostics.skippedFrames)),
                    ("peakBytesHeld", .int(diagnostics.peakBytesHeld)),
                    ("decodeFailures", .int(failures.count)),
                ])
            ),
        ])
    }

    func table(source: String, frameCount: Int) -> String {
        var header = "         t  frame  stalled  skipped  held        bytes"
        if simulatesArrival { header += "     received  arrived" }
        var lines = ["\(source): \(frameCount) frames", header]
        for t in ticks {
            let time = Formatting.format3(Trace.seconds(t.t) * 1000)
            var line =
                pad(time + "ms", 10) + "  " + pad(t.frame.map(String.init) ?? "-", 5) + "  "
                + pad(t.stalled ? "yes" : "", 7) + "  " + pad(t.skipped == 0 ? "" : String(t.skipped), 7) + "  "
                + pad(String(t.framesHeld), 4) + "  " + pad(String(t.bytesHeld), 11)
            if let a = t.arrived { line += "  " + pad(String(a.bytes), 11) + "  " + pad(String(a.frames), 7) }
            lines.append(line)
            for f in t.failures { lines.append("            decode of frame \(f.frame) failed: \(f.error)") }
        }
        let failureCount = failures.count
        lines.append(
            "summary: \(diagnostics.framesShown) frames shown, \(diagnostics.stalledTicks) stalled ticks, "
                + "\(diagnostics.skippedFrames) skipped, peak \(Formatting.bytes(diagnostics.peakBytesHeld)) held, "
                + "\(failureCount) decode failure\(failureCount == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    private func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : String(repeating: " ", count: n - s.count) + s
    }
}
