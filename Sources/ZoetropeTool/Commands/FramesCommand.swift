import Foundation
import Zoetrope
import ZoetropeAPNG

/// `zoetrope frames FILE --output DIR`: every frame as a full-canvas straight-alpha PNG,
/// plus `manifest.json` (the contract in DESIGN.md, read by the conformance checker).
enum FramesCommand {
    static let usage = """
        usage: zoetrope frames (FILE | URL | - | --demo) --output DIR [--threads N] [--cache DIR] [--timeout S]
               zoetrope frames (FILE | URL | - | --demo) --sheet OUT.png [--threads N] [--cache DIR] [--timeout S]

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

        - reads standard input as it arrives (curl … | zoetrope frames - --output DIR): each
        frame's PNG is written as soon as its bytes are in, the manifest at the end, and the
        folder ends up as `frames FILE` leaves it for the same bytes (input that cannot be
        decoded at all deletes the frames written before the error was found). A format whose
        coder needs the whole file, and --sheet, read standard input to its end first.

        An http(s) URL is read the same way, as it downloads; an HTTP error is one line, exit 1.
        --cache DIR keeps responses in DIR, as HTTP caching allows: a fresh one is read from
        there without a request, a stale one is revalidated.
        """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: ["output", "sheet", "threads", "cache", "timeout"], flagOptions: ["demo", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        try URLInput.setTimeout(a.value("timeout"))
        let outputDir = a.value("output"), sheetPath = a.value("sheet")
        guard outputDir != nil || sheetPath != nil else { throw UsageError("frames needs --output DIR or --sheet OUT.png") }
        let input: ImageInput
        switch (a.flag("demo"), a.positionals.count) {
        case (true, 0): input = .demo
        case (false, 1) where a.positionals[0] == "-" || URLInput.isURL(a.positionals[0]):
            _ = try a.int("threads", range: 1...256)  // a usage error before reading anything
            let argument = a.positionals[0]
            let reader = argument == "-" ? StandardInputReader() : try URLInput.reader(for: argument, cache: a.value("cache"))
            // Only the frames' PNGs can be written as they arrive: a contact sheet's layout
            // needs the frame count, so with --sheet standard input is read to the end first.
            if let outputDir, sheetPath == nil {
                switch try StandardInputSource.open(reader, registry: registry) {
                case .incremental(let session):
                    var stream = FramesStream(session: session, output: FramesOutput(directory: outputDir), reader: reader)
                    return try stream.run(out: &out)
                case .whole(let data):
                    input = .bytes(data, name: reader.name)
                }
            } else {
                input = .bytes(try reader.readToEnd(), name: reader.name)
                guard input.byteCount != 0 else {
                    throw ToolError("\(reader.name): empty (no bytes before the end of input)")
                }
            }
        case (false, 1): input = try ImageInput.file(a.positionals[0])
        default: throw UsageError("frames takes exactly one FILE (or -), or --demo")
        }
        let threads = try a.int("threads", range: 1...256)
        let source = try input.makeFrameSource(registry: registry)
        let info = source.info
        guard info.frameCount > 0 else {
            throw ToolError("\(input.name): \(info.truncation?.description ?? "the image has no frames")")
        }
        let output = outputDir.map { FramesOutput(directory: $0) }
        try output?.createDirectory()
        var sheet: ContactSheet?
        if sheetPath != nil {
            do {
                sheet = try ContactSheet(info: info, title: ContactSheet.title(for: info, name: input.name))
            } catch {
                throw ToolError("\(input.name): contact sheet: \(error)")
            }
        }
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
            let raw = info.frameDurations[i]
            sheet?.add(frame: buffer, index: i, rawDuration: raw)
            guard let output else { entries.append(.null); continue }
            try output.writeFrame(buffer, index: i)
            entries.append(FramesOutput.entry(index: i, rawDuration: raw))
        }
        if entries.isEmpty, let failure { throw ToolError("\(input.name): \(failure)") }
        if let sheet, let sheetPath {
            guard FileManager.default.createFile(atPath: sheetPath, contents: try PNGEncoder().encode(sheet.image)) else {
                throw ToolError("\(sheetPath): cannot write")
            }
        }
        let warning = failure ?? info.truncation?.description
        // What decoding alone found (a JPEG's concealed data errors) joins the info's warnings.
        var shown = info
        shown.warnings += (source as? any DecodeWarningReporting)?.decodeWarnings ?? []
        guard let output else {
            if let warning { out.error("zoetrope: warning: \(input.name): \(warning); the sheet shows the \(entries.count) frames before it") }
            return 0
        }
        try output.writeManifest(
            info: shown, outputSize: source.outputSize, entries: entries, warning: warning,
            name: input.name, out: &out)
        return 0
    }
}
