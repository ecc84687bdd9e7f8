import Zoetrope

/// `zoetrope info FILE... [--json]`: what each image is, without decoding any pixel
/// beyond what the coder needs for its header and frame index.
enum InfoCommand {
    static let usage = """
    usage: zoetrope info (FILE... | --demo) [--json]

    Prints, for each image: the format sniffed from content, the canvas, the frame count,
    total plays, raw and displayed durations (≤ 10 ms plays as 100 ms), and the decoded
    size of one frame and of all frames.
      --demo   describe the built-in demo animation
      --json   a JSON array, one object per input
    """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: [], flagOptions: ["json", "demo", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        var inputs: [String] = a.positionals
        if a.flag("demo") { inputs.insert("", at: 0) }
        guard !inputs.isEmpty else { throw UsageError("info needs at least one FILE or --demo") }
        var objects: [JSONValue] = []
        var failed = false
        for path in inputs {
            do {
                let input = path.isEmpty ? ImageInput.demo : try ImageInput.file(path)
                let source = try input.makeFrameSource(registry: registry)
                if a.flag("json") {
                    objects.append(json(for: source.info, input: input))
                } else {
                    out.print(text(for: source.info, input: input))
                }
            } catch let error as ToolError {
                out.error("zoetrope: \(error.message)")
                failed = true
            }
        }
        if a.flag("json") { out.print(JSONValue.array(objects).serialized()) }
        return failed ? 1 : 0
    }

    static func json(for info: AnimationInfo, input: ImageInput) -> JSONValue {
        let display = info.displayDurations()
        var pairs: [(String, JSONValue)] = [
            ("file", .string(input.name)),
            ("format", .string(info.format.identifier)),
            ("mediaType", .string(info.format.mediaType)),
            ("width", .int(info.canvasSize.width)),
            ("height", .int(info.canvasSize.height)),
            ("frameCount", .int(info.frameCount)),
            ("animated", .bool(info.isAnimated)),
            ("plays", Formatting.playsJSON(info.loopCount)),
            ("storedLoopValue", info.storedLoopValue.map { .int($0) } ?? .null),
            ("durationsMs", .array(info.frameDurations.map(Formatting.millisecondsJSON))),
            ("displayDurationsMs", .array(display.map(Formatting.millisecondsJSON))),
            ("totalDurationMs", Formatting.millisecondsJSON(info.totalDuration)),
            ("displayTotalDurationMs", Formatting.millisecondsJSON(display.reduce(.zero, +))),
            ("frameBytes", .int(info.frameByteCount)),
            ("allFramesBytes", .int(info.allFramesByteCount)),
        ]
        if let n = input.byteCount { pairs.append(("fileBytes", .int(n))) }
        if let t = info.truncation { pairs.append(("truncated", .string(t.description))) }
        if !info.warnings.isEmpty { pairs.append(("warnings", .array(info.warnings.map { .string($0) }))) }
        return .object(pairs)
    }

    static func text(for info: AnimationInfo, input: ImageInput) -> String {
        let display = info.displayDurations()
        let clamped = zip(info.frameDurations, display).filter { $0 != $1 }.count
        let stored = info.storedLoopValue.map { " (stored value \($0))" } ?? (info.isAnimated ? " (no loop value stored)" : "")
        var lines = [
            input.name,
            "  format     \(info.format.identifier) (\(info.format.mediaType))",
            "  canvas     \(info.canvasSize.width)×\(info.canvasSize.height)",
            "  frames     \(info.frameCount)\(info.isAnimated ? "" : " (still)")",
            "  plays      \(info.loopCount)\(stored)",
            "  durations  \(Formatting.durationRuns(info.frameDurations)) (raw)",
            "             \(Formatting.durationRuns(display)) (displayed\(clamped > 0 ? ", \(clamped) clamped" : ""))",
            "  total      \(Formatting.milliseconds(info.totalDuration)) raw, \(Formatting.milliseconds(display.reduce(.zero, +))) displayed",
            "  decoded    one frame \(Formatting.bytes(info.frameByteCount)); all frames \(Formatting.bytes(info.allFramesByteCount))",
        ]
        if let n = input.byteCount { lines.append("  file       \(Formatting.bytes(n))") }
        if let t = info.truncation { lines.append("  warning    \(t)") }
        for w in info.warnings { lines.append("  warning    \(w)") }
        return lines.joined(separator: "\n")
    }
}
