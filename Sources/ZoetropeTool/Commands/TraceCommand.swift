import Foundation
import Zoetrope
import ZoetropeTesting

/// `zoetrope trace (FILE | --demo) [options]`: runs the real player on a manual clock with
/// simulated decode time and prints what it did at every tick. The same arguments always
/// print the same ticks, so traces can be diffed and read by other programs.
enum TraceCommand {
    static let usage = """
        usage: zoetrope trace (FILE | --demo) [options]

        Runs the player on a simulated display refresh and prints, tick by tick, the time, the
        frame shown, whether it stalled, frames skipped, and the frames and bytes held.
        Decoding is real; its time is simulated, so a trace is deterministic.
          --refresh HZ | variable   ticks per second (default 60); variable cycles 120…48…120 Hz
          --duration SECONDS        how long to run (default: one play, at most 60 s)
          --decode-cost MS          simulated time each frame's decode takes (default 0)
          --policy P                one-ahead (default) | ahead:N | all | budget:MIB | shared
          --late stall|catch-up     what a late frame does (default stall)
          --hide-at SECONDS         hide the display at this time…
          --show-at SECONDS         …and show it again at this time
          --rate X                  playback rate, 0.25 to 4 (default 1)
          --loops N                 total plays (N ≥ 1, or 0 for forever; default: the file's)
          --arrival BYTES_PER_SEC   the file arrives at this rate, as over a network: the player
                                    plays the frames that have arrived and stalls at the edge
                                    (default length: the download, then one play)
          --json                    JSON instead of a table

        JSON (a stable contract):
          {"source", "frameCount",
           "ticks": [{"t": seconds since start, "frame": index shown or null, "stalled": bool,
                      "skipped": frames skipped at this tick, "framesHeld": n, "bytesHeld": n
                      [, "bytesReceived": n, "framesArrived": n with --arrival]
                      [, "decodeFailed": [{"frame": n, "error": text}] at the tick a decode failed]}],
           "summary": {"framesShown", "stalls", "skips", "peakBytesHeld", "decodeFailures"}}
        A frame that fails to decode is reported at its tick (the player then pauses on the frame
        shown) and on standard error: exit 1 when no frame could be shown, else a warning and exit 0.
        "stalls" counts stalled ticks; "framesHeld" counts the pixel buffers the player holds
        (the poster, decoded frames, the one being decoded, idle pooled buffers).
        """

    struct Settings {
        var pattern = RefreshPattern.fixed(hertz: 60)
        var durationNs: Int64?
        var decodeCost: Duration = .zero
        var policy: any FrameBufferPolicy = AheadBufferPolicy(framesAhead: 1)
        var late = LatePolicy.stall
        var hideAt: Int64?
        var showAt: Int64?
        var rate = 1.0
        var loops: LoopCount?
    }

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(
            args,
            valueOptions: [
                "refresh", "duration", "decode-cost", "policy", "late", "hide-at", "show-at",
                "rate", "loops", "arrival",
            ],
            flagOptions: ["demo", "json", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        let input: ImageInput
        switch (a.flag("demo"), a.positionals.count) {
        case (true, 0): input = .demo
        case (false, 1): input = try ImageInput.file(a.positionals[0])
        default: throw UsageError("trace takes exactly one FILE, or --demo")
        }
        let settings = try parse(a, imageKey: input.name)
        if let rate = try a.int("arrival", range: 1...1_000_000_000_000) {
            guard let data = input.data else { throw UsageError("option '--arrival' needs a FILE (the demo does not arrive)") }
            let arrival = try TraceArrival(data: data, name: input.name, bytesPerSecond: rate, registry: registry)
            let trace = Trace.run(arrival: arrival, settings: settings)
            let frames = arrival.session.snapshot.frameCount
            out.print(
                a.flag("json")
                    ? trace.json(source: input.name, frameCount: frames).serialized()
                    : trace.table(source: input.name, frameCount: frames))
            return status(trace, name: input.name, out: &out)
        }
        let source = try input.makeFrameSource(registry: registry)
        guard source.info.frameCount > 0 else {
            throw ToolError("\(input.name): \(source.info.truncation?.description ?? "the image has no frames")")
        }
        let trace = Trace.run(source: source, settings: settings)
        if a.flag("json") {
            out.print(trace.json(source: input.name, frameCount: source.info.frameCount).serialized())
        } else {
            out.print(trace.table(source: input.name, frameCount: source.info.frameCount))
        }
        return status(trace, name: input.name, out: &out)
    }

    /// As `frames`: a decode failure before any frame was shown is an error (exit 1); one
    /// after frames were shown is a warning (exit 0). Either goes to standard error too.
    static func status(_ trace: Trace, name: String, out: inout Output) -> Int32 {
        guard let first = trace.failures.first else { return 0 }
        let message = "\(name): frame \(first.frame): \(first.error)"
        if trace.diagnostics.framesShown == 0 {
            out.error("zoetrope: \(message)")
            return 1
        }
        out.error("zoetrope: warning: \(message); the trace shows the frames before it")
        return 0
    }

    static func seconds(_ a: Arguments, _ name: String) throws(UsageError) -> Int64? {
        guard let s = a.value(name) else { return nil }
        guard let v = Double(s), v.isFinite, v >= 0, v <= 86_400 else {
            throw UsageError("option '--\(name)' needs seconds from 0 to 86400, got '\(s)'")
        }
        return Int64((v * 1e9).rounded())
    }

    static func parse(_ a: Arguments, imageKey: String) throws(UsageError) -> Settings {
        var s = Settings()
        if let r = a.value("refresh") {
            if r == "variable" {
                s.pattern = .variable
            } else if let hz = Int(r), (1...1000).contains(hz) {
                s.pattern = .fixed(hertz: hz)
            } else {
                throw UsageError("option '--refresh' needs a whole number of hertz from 1 to 1000, or 'variable', got '\(r)'")
            }
        }
        s.durationNs = try seconds(a, "duration")
        if let c = a.value("decode-cost") {
            guard let ms = Double(c), ms.isFinite, ms >= 0, ms <= 60_000 else {
                throw UsageError("option '--decode-cost' needs milliseconds from 0 to 60000, got '\(c)'")
            }
            s.decodeCost = .nanoseconds(Int64((ms * 1e6).rounded()))
        }
        if let p = a.value("policy") {
            s.policy = try policy(p, imageKey: imageKey)
        }
        if let l = a.value("late") {
            switch l {
            case "stall": s.late = .stall
            case "catch-up": s.late = .catchUp
            default: throw UsageError("option '--late' needs 'stall' or 'catch-up', got '\(l)'")
            }
        }
        s.hideAt = try seconds(a, "hide-at")
        s.showAt = try seconds(a, "show-at")
        if s.showAt != nil && s.hideAt == nil { throw UsageError("option '--show-at' needs '--hide-at'") }
        if let r = a.value("rate") {
            guard let v = Double(r), v >= 0.25, v <= 4 else {
                throw UsageError("option '--rate' needs a number from 0.25 to 4, got '\(r)'")
            }
            s.rate = v
        }
        if let n = try a.int("loops", range: 0...1_000_000) {
            s.loops = n == 0 ? .infinite : .plays(n)
        }
        return s
    }

    static func policy(_ p: String, imageKey: String) throws(UsageError) -> any FrameBufferPolicy {
        switch p {
        case "one-ahead": return AheadBufferPolicy(framesAhead: 1)
        case "all": return KeepAllBufferPolicy()
        case "shared": return SharedBufferPolicy(cache: SharedFrameCache(), imageKey: imageKey)
        default: break
        }
        if p.hasPrefix("ahead:"), let n = Int(p.dropFirst(6)), (1...10_000).contains(n) {
            return AheadBufferPolicy(framesAhead: n)
        }
        if p.hasPrefix("budget:"), let mib = Double(p.dropFirst(7)), mib.isFinite, mib >= 0, mib <= 1_048_576 {
            return MemoryBudgetBufferPolicy(budgetBytes: Int(mib * 1_048_576))
        }
        throw UsageError("option '--policy' needs one-ahead, ahead:N, all, budget:MIB or shared, got '\(p)'")
    }
}
