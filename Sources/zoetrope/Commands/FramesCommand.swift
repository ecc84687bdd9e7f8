import Foundation
import Zoetrope
import ZoetropeAPNG

/// `zoetrope frames FILE --output DIR`: every frame as a full-canvas straight-alpha PNG,
/// plus `manifest.json` (the contract in DESIGN.md, read by the conformance checker).
enum FramesCommand {
    static let usage = """
    usage: zoetrope frames (FILE | --demo) --output DIR [--threads N]
           zoetrope frames (FILE | --demo) --sheet OUT.png [--threads N]

    Writes DIR/frame-0000.png, … (full canvas, RGBA, straight alpha) and DIR/manifest.json:
      {"format", "width", "height", "frameCount", "plays": "infinite" | N,
       "frames": [{"file", "durationMs", "displayDurationMs"}]}
    durationMs is the raw duration; displayDurationMs is after the default delay policy
    (≤ 10 ms plays as 100 ms). A truncated file writes the frames that decoded, warns, and
    exits 0; a file that cannot be decoded at all exits 1 with one line on standard error.

    --sheet OUT.png writes a contact sheet instead of (or as well as) the frames: every frame
    in a grid, labelled "#index display-duration" (orange with * when the delay policy
    changed the stored delay), transparency shown over a checkerboard.

    --threads N decodes on N threads (default: the cores the process may use; 1 decodes one
    frame after another): GIF, PNG and WebP frames' compressed data decode ahead on worker
    threads while frames are composited and written in order. The output is the same.
    """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: ["output", "sheet", "threads"], flagOptions: ["demo", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        let outputDir = a.value("output"), sheetPath = a.value("sheet")
        guard outputDir != nil || sheetPath != nil else { throw UsageError("frames needs --output DIR or --sheet OUT.png") }
        let input: ImageInput
        switch (a.flag("demo"), a.positionals.count) {
        case (true, 0): input = .demo
        case (false, 1): input = try ImageInput.file(a.positionals[0])
        default: throw UsageError("frames takes exactly one FILE, or --demo")
        }
        let threads = try a.int("threads", range: 1...256)
        let source = try input.makeFrameSource(registry: registry)
        let info = source.info
        guard info.frameCount > 0 else {
            throw ToolError("\(input.name): \(info.truncation?.description ?? "the image has no frames")")
        }
        if let outputDir {
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                throw ToolError("\(outputDir): cannot create the output folder")
            }
        }
        var sheet: ContactSheet?
        if sheetPath != nil {
            do {
                sheet = try ContactSheet(info: info, title: ContactSheet.title(for: info, name: input.name))
            } catch {
                throw ToolError("\(input.name): contact sheet: \(error)")
            }
        }
        let encoder = PNGEncoder()
        var buffer = PixelBuffer()
        var entries: [JSONValue] = []
        var failure: String?
        let run = BulkFrameDecoder(source: source, threads: threads)
        while true {
            let i: Int
            do {
                guard let next = try run.nextFrame(into: &buffer) else { break }
                i = next
            } catch {
                failure = "\(error)"
                break
            }
            let name = "frame-\(String(i).leftPad(4)).png"
            let raw = info.frameDurations[i]
            sheet?.add(frame: buffer, index: i, rawDuration: raw)
            guard let outputDir else { entries.append(.null); continue }
            let png = try encoder.encode(buffer)
            guard FileManager.default.createFile(atPath: outputDir + "/" + name, contents: png) else {
                throw ToolError("\(outputDir)/\(name): cannot write")
            }
            entries.append(.object([
                ("file", .string(name)),
                ("durationMs", Formatting.millisecondsJSON(raw)),
                ("displayDurationMs", Formatting.millisecondsJSON(DelayPolicy.default.displayDuration(for: raw))),
            ]))
        }
        if entries.isEmpty, let failure { throw ToolError("\(input.name): \(failure)") }
        if let sheet, let sheetPath {
            guard FileManager.default.createFile(atPath: sheetPath, contents: try encoder.encode(sheet.image)) else {
                throw ToolError("\(sheetPath): cannot write")
            }
        }
        let warning = failure ?? info.truncation?.description
        guard let outputDir else {
            if let warning { out.error("zoetrope: warning: \(input.name): \(warning); the sheet shows the \(entries.count) frames before it") }
            return 0
        }
        var manifest: [(String, JSONValue)] = [
            ("format", .string(info.format.identifier)),
            // The source's size, not the buffer's: a frame that failed may have left it empty.
            ("width", .int(source.outputSize.width)),
            ("height", .int(source.outputSize.height)),
            ("frameCount", .int(entries.count)),
            ("plays", Formatting.playsJSON(info.loopCount)),
            ("frames", .array(entries)),
        ]
        if let warning { manifest.append(("warning", .string(warning))) }
        if !info.warnings.isEmpty { manifest.append(("warnings", .array(info.warnings.map { .string($0) }))) }
        for w in info.warnings { out.error("zoetrope: warning: \(input.name): \(w)") }
        let text = JSONValue.object(manifest).serialized() + "\n"
        guard FileManager.default.createFile(atPath: outputDir + "/manifest.json", contents: Data(text.utf8)) else {
            throw ToolError("\(outputDir)/manifest.json: cannot write")
        }
        if let warning { out.error("zoetrope: warning: \(input.name): \(warning); wrote the \(entries.count) frames before it") }
        return 0
    }
}
