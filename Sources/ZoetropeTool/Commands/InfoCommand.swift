import Foundation
import Zoetrope
import ZoetropeAPNG

/// `zoetrope info FILE... [--json]`: what each image is, without decoding any pixel
/// beyond what the coder needs for its header and frame index.
enum InfoCommand {
    static let usage = """
        usage: zoetrope info (FILE... | URL... | - | --demo) [--json] [--cache DIR] [--timeout S]

        Prints, for each image: the format sniffed from content, the canvas, the frame count,
        total plays, raw and displayed durations (≤ 10 ms plays as 100 ms), and the decoded
        size of one frame and of all frames, the bits per channel of a deep file (16-bit PNG,
        10- or 12-bit AVIF), and the colour the file declares (ICC profile with
        its description, PNG sRGB/gAMA/cHRM/cICP, AVIF nclx) with what decoding does with it.
          -        read the image from standard input (printed once it ends)
          URL      an http(s) URL, read as it downloads (an HTTP error: one line, exit 1)
          --cache DIR  keep responses in DIR as HTTP caching allows (a fresh one: no request);
                   safe on any folder: only the cache's own files are read, touched or removed
          --timeout S  give up on a URL after S seconds, however steadily it arrives
          --demo   describe the built-in demo animation
          --json   a JSON array, one object per input
        """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: ["cache", "timeout"], flagOptions: ["json", "demo", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        try URLInput.setTimeout(a.value("timeout"))
        var inputs: [String] = a.positionals
        if a.flag("demo") { inputs.insert("", at: 0) }
        guard !inputs.isEmpty else { throw UsageError("info needs at least one FILE or --demo") }
        var objects: [JSONValue] = []
        var failed = false
        for path in inputs {
            do {
                var info: AnimationInfo, name: String, byteCount: Int?
                if path == "-" || URLInput.isURL(path) {
                    let reader = path == "-" ? StandardInputReader() : try URLInput.reader(for: path, cache: a.value("cache"))
                    (info, byteCount) = try standardInputInfo(registry: registry, reader: reader)
                    name = reader.name
                } else {
                    let input = path.isEmpty ? ImageInput.demo : try ImageInput.file(path)
                    (info, name, byteCount) = (try input.makeFrameSource(registry: registry).info, input.name, input.byteCount)
                    if let data = input.data { info.warnings += damagedFrameWarnings(info, data) }
                }
                if a.flag("json") {
                    objects.append(json(for: info, name: name, byteCount: byteCount))
                } else {
                    out.print(text(for: info, name: name, byteCount: byteCount))
                }
            } catch let error as ToolError {
                out.error("zoetrope: \(error.message)")
                failed = true
            }
        }
        if a.flag("json") { out.print(JSONValue.array(objects).serialized()) }
        return failed ? 1 : 0
    }

    /// The info of standard input, read as it arrives: a coder that decodes incrementally
    /// indexes each piece as it comes (a broken header fails before the rest is read);
    /// otherwise the whole input is read first. Known only at the end of input, since the
    /// frame count and durations need every frame.
    static func standardInputInfo(registry: CoderRegistry, reader: StandardInputReader = StandardInputReader()) throws -> (
        AnimationInfo, byteCount: Int
    ) {
        switch try StandardInputSource.open(reader, registry: registry) {
        case .incremental(let session):
            try StandardInputSource.feed(session, from: reader)
            let info = try StandardInputSource.finish(session, name: reader.name)
            return (info, session.snapshot.receivedByteCount)
        case .whole(let data):
            let input = ImageInput.bytes(data, name: reader.name)
            return (try input.makeFrameSource(registry: registry).info, data.count)
        }
    }

    /// An APNG frame counted here that `frames` cannot write: opening checks frame 0's data
    /// only, so the later frames' data CRCs are read here, and a damaged one is named.
    static func damagedFrameWarnings(_ info: AnimationInfo, _ data: Data) -> [String] {
        guard info.format == .apng, let damaged = try? APNGCoder().firstDamagedFrame(in: data), damaged.index > 0 else { return [] }
        let i = damaged.index
        return ["frame \(i) does not decode (\(damaged.reason)): decoding stops after the \(i) frame\(i == 1 ? "" : "s") before it"]
    }

    static func json(for info: AnimationInfo, name: String, byteCount: Int?) -> JSONValue {
        let display = info.displayDurations()
        var pairs: [(String, JSONValue)] = [
            ("file", .string(name)),
            ("format", .string(info.format.identifier)),
            ("mediaType", .string(info.format.mediaType)),
            ("width", .int(info.canvasSize.width)),
            ("height", .int(info.canvasSize.height)),
            ("bitsPerChannel", .int(info.bitsPerChannel)),
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
        if let n = byteCount { pairs.append(("fileBytes", .int(n))) }
        if let t = info.truncation { pairs.append(("truncated", .string(t.description))) }
        if !info.warnings.isEmpty { pairs.append(("warnings", .array(info.warnings.map { .string($0) }))) }
        if info.color.isDeclared { pairs.append(("color", colorJSON(info.color, format: info.format))) }
        return .object(pairs)
    }

    static func text(for info: AnimationInfo, name: String, byteCount: Int?) -> String {
        let display = info.displayDurations()
        let clamped = zip(info.frameDurations, display).filter { $0 != $1 }.count
        let stored = info.storedLoopValue.map { " (stored value \($0))" } ?? (info.isAnimated ? " (no loop value stored)" : "")
        var lines = [
            name,
            "  format     \(info.format.identifier) (\(info.format.mediaType))",
            "  canvas     \(info.canvasSize.width)×\(info.canvasSize.height)",
            "  frames     \(info.frameCount)\(info.isAnimated ? "" : " (still)")",
            "  plays      \(info.loopCount)\(stored)",
            "  durations  \(Formatting.durationRuns(info.frameDurations)) (raw)",
            "             \(Formatting.durationRuns(display)) (displayed\(clamped > 0 ? ", \(clamped) clamped" : ""))",
            "  total      \(Formatting.milliseconds(info.totalDuration)) raw, \(Formatting.milliseconds(display.reduce(.zero, +))) displayed",
            "  decoded    one frame \(Formatting.bytes(info.frameByteCount)); all frames \(Formatting.bytes(info.allFramesByteCount))",
        ]
        if let n = byteCount { lines.append("  file       \(Formatting.bytes(n))") }
        if info.isDeep { lines.append("  depth      \(info.bitsPerChannel) bits per channel (RGBA16 keeps them, RGBA8 rounds)") }
        if info.color.isDeclared { lines += colorLines(info.color, format: info.format) }
        if let t = info.truncation { lines.append("  warning    \(t)") }
        for w in info.warnings { lines.append("  warning    \(w)") }
        return lines.joined(separator: "\n")
    }
}
