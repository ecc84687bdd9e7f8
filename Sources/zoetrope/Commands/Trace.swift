import Zoetrope

/// One simulated run of the player, tick by tick: what `zoetrope trace` prints.
struct Trace {
    struct Tick {
        var t: Int64
        var frame: Int?
        var stalled: Bool
        var skipped: Int
        var framesHeld: Int
        var bytesHeld: Int
    }
    var ticks: [Tick] = []
    var diagnostics = PlayerDiagnostics()

    /// Plays `source` on a manual clock whose decodes take `settings.decodeCost` of simulated time.
    static func run(source: any FrameSource, settings s: TraceCommand.Settings) -> Trace {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor(constantCost: s.decodeCost)
        let attachment = executor.attach(to: clock)
        defer { attachment.cancel() }
        let display = HeadlessDisplay()
        let config = PlayerConfiguration(bufferPolicy: s.policy, latePolicy: s.late, loopCount: s.loops, rate: s.rate,
                                         executor: executor, memoryPressure: nil)
        let player = AnimationPlayer(source: source, clock: clock, configuration: config)
        display.setAnimation(player)

        // Default length: one play at the chosen rate, at least 0.1 s, at most 60 s.
        let onePlay = source.info.displayDurations().reduce(.zero, +)
        let onePlayNs = Int64(onePlay.seconds * 1e9 / s.rate)
        let end = s.durationNs ?? min(max(onePlayNs, 100_000_000), 60_000_000_000)

        var trace = Trace()
        var k = 0
        while true {
            let t = s.pattern.nanoseconds(ofTick: k)
            if t >= end { break }
            if let hide = s.hideAt {
                display.setVisible(!(t >= hide && t < (s.showAt ?? .max)))
            }
            clock.tick(atNanoseconds: t)
            let d = player.diagnostics
            if let r = player.lastTickReport, r.targetNanoseconds == t {
                trace.ticks.append(Tick(t: t, frame: r.frameShown, stalled: r.stalled, skipped: r.skipped,
                                        framesHeld: r.framesHeld, bytesHeld: r.bytesHeld))
            } else {
                // The player is not ticking (finished or showing the poster): nothing changes.
                trace.ticks.append(Tick(t: t, frame: player.currentFrameIndex, stalled: false, skipped: 0,
                                        framesHeld: d.framesHeld, bytesHeld: d.bytesHeld))
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
            ("ticks", .array(ticks.map { t in
                .object([
                    ("t", .double(Trace.seconds(t.t))),
                    ("frame", t.frame.map { .int($0) } ?? .null),
                    ("stalled", .bool(t.stalled)),
                    ("skipped", .int(t.skipped)),
                    ("framesHeld", .int(t.framesHeld)),
                    ("bytesHeld", .int(t.bytesHeld)),
                ])
            })),
            ("summary", .object([
                ("framesShown", .int(diagnostics.framesShown)),
                ("stalls", .int(diagnostics.stalledTicks)),
                ("skips", .int(diagnostics.skippedFrames)),
                ("peakBytesHeld", .int(diagnostics.peakBytesHeld)),
            ])),
        ])
    }

    func table(source: String, frameCount: Int) -> String {
        var lines = ["\(source): \(frameCount) frames", "         t  frame  stalled  skipped  held        bytes"]
        for t in ticks {
            let time = Formatting.format3(Trace.seconds(t.t) * 1000)
            lines.append(pad(time + "ms", 10) + "  " + pad(t.frame.map(String.init) ?? "-", 5) + "  "
                         + pad(t.stalled ? "yes" : "", 7) + "  " + pad(t.skipped == 0 ? "" : String(t.skipped), 7) + "  "
                         + pad(String(t.framesHeld), 4) + "  " + pad(String(t.bytesHeld), 11))
        }
        lines.append("summary: \(diagnostics.framesShown) frames shown, \(diagnostics.stalledTicks) stalled ticks, "
                     + "\(diagnostics.skippedFrames) skipped, peak \(Formatting.bytes(diagnostics.peakBytesHeld)) held")
        return lines.joined(separator: "\n")
    }

    private func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : String(repeating: " ", count: n - s.count) + s
    }
}
