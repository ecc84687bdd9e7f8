import Foundation
import Zoetrope

/// `zoetrope bench FILE... [--json]`: decode throughput, time to first frame, peak memory
/// and the bytes each buffer policy holds, per input.
enum BenchCommand {
    static let usage = """
        usage: zoetrope bench (FILE... | --demo) [--json] [--min-time SECONDS] [--threads N] [--no-policies]

        For each image: decodes every frame to a full canvas, pass after pass, until at least
        --min-time seconds (default 1) have passed, on the bulk path `frames` and `convert` use
        (--threads N threads, default the cores the process may use, for the frames and for
        the codec's and colour conversion's own threads; 1 decodes one frame after another on
        one thread), and reports frames/s and megapixels/s, the threads used, the
        time from the encoded bytes to the first frame, the process's peak resident memory, and
        the most decoded bytes the player holds during one play under each buffer policy
        (one-ahead, ahead:4, all, budget:64 MiB; width × height × 4 per kept frame), measured
        on a simulated refresh as `zoetrope trace` does.
        A progress bar goes to standard error when it is a terminal.
          --demo          benchmark the built-in demo animation
          --no-policies   skip the per-policy plays (four more passes over the frames)
          --json          a JSON array, one object per input, with at least
                          {"file", "format", "width", "height", "frameCount", "framesPerSecond",
                           "megapixelsPerSecond", "firstFrameMs", "peakMemoryBytes", "threads"}
        """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: ["min-time", "threads"], flagOptions: ["json", "demo", "help", "no-policies"])
        if a.flag("help") { out.print(usage); return 0 }
        var minimum = 1.0
        if let s = a.value("min-time") {
            guard let v = Double(s), v >= 0, v <= 3600 else {
                throw UsageError("option '--min-time' needs seconds from 0 to 3600, got '\(s)'")
            }
            minimum = v
        }
        let threads = try a.int("threads", range: 1...256)
        var inputs: [String] = a.positionals
        if a.flag("demo") { inputs.insert("", at: 0) }
        guard !inputs.isEmpty else { throw UsageError("bench needs at least one FILE or --demo") }

        let bar = ProgressBar.standardErrorIfTerminal()
        var objects: [JSONValue] = []
        var failed = false
        for (n, path) in inputs.enumerated() {
            do {
                let input = path.isEmpty ? ImageInput.demo : try ImageInput.file(path)
                var bench = DecodeBenchmark(minimumSeconds: minimum)
                bench.measuresPolicies = !a.flag("no-policies")
                bench.threads = threads
                if let bar {
                    bench.progress = { bar.show(fraction: (Double(n) + $0) / Double(inputs.count), label: input.name) }
                }
                let result = try bench.run(input, registry: registry)
                if let warning = result.warning { out.error("zoetrope: warning: \(input.name): \(warning)") }
                if a.flag("json") {
                    objects.append(json(for: result))
                } else {
                    bar?.clear()
                    out.print(text(for: result))
                }
            } catch let error as ToolError {
                bar?.clear()
                out.error("zoetrope: \(error.message)")
                failed = true
            }
        }
        bar?.clear()
        if a.flag("json") { out.print(JSONValue.array(objects).serialized()) }
        return failed ? 1 : 0
    }

    /// The stable JSON shape: the keys the issue promises first, then details.
    static func json(for r: BenchResult) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("file", .string(r.name)),
            ("format", .string(r.info.format.identifier)),
            ("width", .int(r.info.canvasSize.width)),
            ("height", .int(r.info.canvasSize.height)),
            ("frameCount", .int(r.info.frameCount)),
            ("framesPerSecond", .double(round3(r.framesPerSecond))),
            ("megapixelsPerSecond", .double(round3(r.megapixelsPerSecond))),
            ("firstFrameMs", .double(round3(r.firstFrameSeconds * 1000))),
            ("peakMemoryBytes", .int(r.peakMemoryBytes)),
            ("threads", .int(r.threads)),
            ("framesDecoded", .int(r.framesDecoded)),
            ("passes", .int(r.passes)),
            ("seconds", .double(round3(r.seconds))),
            ("sessionBytes", .int(r.sessionBytes)),
            ("bytesHeld", .object(r.bytesHeld.map { ($0.policy, .int($0.bytes)) })),
        ]
        if let w = r.warning { pairs.append(("warning", .string(w))) }
        return .object(pairs)
    }

    static func text(for r: BenchResult) -> String {
        let held = r.bytesHeld.map { "\($0.policy) \(Formatting.bytes($0.bytes))" }
        var lines = [
            r.name,
            "  image        \(r.info.format.identifier), \(r.info.canvasSize.width)×\(r.info.canvasSize.height), \(r.info.frameCount) frame\(r.info.frameCount == 1 ? "" : "s")",
            "  decode       \(Formatting.format1(r.framesPerSecond)) frames/s, \(Formatting.format1(r.megapixelsPerSecond)) MP/s (\(r.framesDecoded) frames in \(r.passes) pass\(r.passes == 1 ? "" : "es"), \(Formatting.format3(r.seconds)) s, \(r.threads) thread\(r.threads == 1 ? "" : "s"))",
            "  first frame  \(Formatting.format3(r.firstFrameSeconds * 1000)) ms",
            "  peak memory  \(Formatting.bytes(r.peakMemoryBytes)) resident",
            "  session      \(Formatting.bytes(r.sessionBytes)) held by the decoder",
        ]
        if !held.isEmpty { lines.append("  held         " + held.joined(separator: "\n               ")) }
        return lines.joined(separator: "\n")
    }

    private static func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
