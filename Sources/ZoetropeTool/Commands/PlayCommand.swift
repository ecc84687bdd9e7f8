import Foundation
import Zoetrope

/// `zoetrope play [FILE]`: plays an animation in the terminal with the shared
/// `AnimationPlayer`, or, when standard output is not a terminal, plays it once without
/// drawing and prints a summary, so scripts and CI can run it.
enum PlayCommand {
    static let usage = """
        usage: zoetrope play [FILE | URL | - | --demo] [--width COLS] [--loops N|infinite] [--speed X]
                             [--policy POLICY] [--late stall|catch-up] [--reduce-motion] [--cache DIR] [--timeout S]

        Plays in the terminal in 24-bit colour, two pixels per character cell, scaled to fit
        (or to --width columns), in the alternate screen; the terminal is restored on quit,
        Ctrl-C and SIGTERM. With no FILE it plays the built-in demo. NO_COLOR draws with
        characters instead of colour. FILE - reads standard input as it arrives
        (curl … | zoetrope play -): the frames play as they come, waiting at the last one
        that has arrived, and the animation loops only once the file is complete; keys are
        then read from the terminal (/dev/tty). An http(s) URL plays the same way as it
        downloads; --cache DIR keeps responses there (fresh ones are not asked for again).
          space  pause / resume      ←/→  step a frame (pauses)
          +/−    change speed        q    quit
        The status line shows frame i/n, play k of n, frames shown per second, speed, buffer
        policy and the bytes of decoded frames held.

        When standard output is not a terminal, plays once (or --loops times) without keys,
        prints a summary line and exits 0.
          --loops N|infinite     total plays, 0 or infinite for forever (default: the file's;
                                 one play when not a terminal)
          --speed X              0.25 to 4 (default 1)
          --policy POLICY        one-ahead (default) | ahead:N | all | budget:MIB | shared
          --late stall|catch-up  a late frame holds (default) or frames are skipped to keep time
          --reduce-motion        show the poster (first frame) only
        """

    static let speeds: [Double] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4]

    /// Runs the command; `terminal` overrides the check of whether standard output is a terminal.
    static func run(_ args: [String], registry: CoderRegistry, out: inout Output, terminal: Bool? = nil) throws -> Int32 {
        let a = try Arguments(
            args, valueOptions: ["width", "loops", "speed", "policy", "late", "cache", "timeout"],
            flagOptions: ["demo", "reduce-motion", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        try URLInput.setTimeout(a.value("timeout"))
        let width = try a.int("width", range: 1...10_000)
        let loops = try a.value("loops").map(parseLoops)
        let speed = try a.value("speed").map(parseSpeed) ?? 1
        let policy = try a.value("policy").map(parsePolicy) ?? AheadBufferPolicy(framesAhead: 1)
        let late = try a.value("late").map(parseLate) ?? .stall
        let interactive = terminal ?? (isatty(STDOUT_FILENO) != 0)

        let input: ImageInput
        var arriving: (any IncrementalFrameSource, StandardInputReader)?
        switch (a.flag("demo"), a.positionals.count) {
        case (_, 0): input = .demo
        case (false, 1) where a.positionals[0] == "-" || URLInput.isURL(a.positionals[0]):
            let argument = a.positionals[0]
            let reader = argument == "-" ? StandardInputReader() : try URLInput.reader(for: argument, cache: a.value("cache"))
            // Read as it arrives when the coder decodes incrementally, else to the end.
            switch try StandardInputSource.open(reader, registry: registry) {
            case .incremental(let session):
                arriving = (session, reader)
                input = .bytes(Data(), name: reader.name)
            case .whole(let data):
                input = .bytes(data, name: reader.name)
            }
        case (false, 1): input = try ImageInput.file(a.positionals[0])
        default: throw UsageError("play takes at most one FILE (or - or --demo)")
        }
        let media: PlaySession.Media
        if let arriving {
            media = .arriving(arriving.0, arriving.1)
        } else {
            let source = try input.makeFrameSource(registry: registry)
            guard source.info.frameCount > 0 else {
                throw ToolError("\(input.name): \(source.info.truncation?.description ?? "the image has no frames")")
            }
            media = .whole(source)
        }
        let configuration = PlayerConfiguration(
            bufferPolicy: policy, latePolicy: late,
            loopCount: loops ?? (interactive ? nil : .once), rate: speed,
            environment: PlaybackEnvironment(reduceMotion: a.flag("reduce-motion")))
        let color = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        let session = PlaySession(
            media: media, configuration: configuration, interactive: interactive,
            width: width, color: color)
        return session.run(name: input.name, out: &out)
    }

    static func parseLoops(_ s: String) throws(UsageError) -> LoopCount {
        if s == "infinite" || s == "forever" || s == "0" { return .infinite }
        guard let n = Int(s), n >= 1, n <= 1_000_000 else {
            throw UsageError("option '--loops' needs a number of plays, or 0 or 'infinite' for forever, got '\(s)'")
        }
        return .plays(n)
    }

    static func parseSpeed(_ s: String) throws(UsageError) -> Double {
        guard let v = Double(s.hasSuffix("x") ? String(s.dropLast()) : s), v >= 0.25, v <= 4 else {
            throw UsageError("option '--speed' needs a speed from 0.25 to 4, got '\(s)'")
        }
        return v
    }

    static func parseLate(_ s: String) throws(UsageError) -> LatePolicy {
        switch s {
        case "stall": return .stall
        case "catch-up", "catchup", "skip": return .catchUp
        default: throw UsageError("option '--late' needs 'stall' or 'catch-up', got '\(s)'")
        }
    }

    /// The same policy names as `zoetrope trace`: one-ahead, ahead:N, all, budget:MIB, shared.
    static func parsePolicy(_ s: String) throws(UsageError) -> any FrameBufferPolicy {
        try TraceCommand.policy(s, imageKey: "play")
    }
}
