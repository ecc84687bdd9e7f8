import Dispatch
import Foundation
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeColor
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeQuality
import ZoetropeWebP

/// `zoetrope convert IN OUT`: decodes any supported animation and writes it as GIF, APNG,
/// WebP or AVIF, decoding frame i + 1 while frame i is encoded.
enum ConvertCommand {
    static let usage = """
        usage: zoetrope convert IN OUT [options]
               zoetrope convert IN... --output-dir DIR --format F [options]

        Converts an animation (GIF, APNG, WebP, AVIF; the input's format is read from its content)
        to the format of OUT's extension (.gif, .png/.apng, .webp, .avif) or --format.
        IN may be - (standard input) or an http(s) URL (an HTTP error: one line, exit 1; --cache DIR
        keeps responses in DIR as HTTP caching allows; --timeout S gives up after S seconds);
        OUT may be - (standard output, needs --format).
        With --output-dir, every IN (files only) is converted in one process to DIR/NAME.EXT
        (NAME: IN's name without its extension; EXT: gif, png, webp or avif); a bad input gets
        its one line and the others go on, and the exit status is 1 if any failed. Files convert
        in parallel (--jobs), while the canvases they hold fit in 1 GiB; lines come in IN order.

          --format F            gif | apng | webp | avif (default: from OUT's extension)
          --output-dir DIR      convert every IN into DIR (created if missing); needs --format
          --jobs N              with --output-dir: files converted at once (default: the cores
                                the process may use)
          --quality Q           0-100: lossy WebP/AVIF at quality Q (AVIF default 70)
          --lossless            lossless WebP (the WebP default) or AVIF
          --target-quality S    the lowest WebP/AVIF quality, or the strongest GIF --lossy, whose
                                output's mean SSIMULACRA2 reaches S (90 about visually
                                lossless, 70 high quality), found by encoding 5-7 times
          --mixed               WebP: lossy or lossless per frame, whichever is smaller
          --speed S             AVIF: 0 (slowest, smallest) to 10 (fastest); default 6
          --codec C             AVIF: aom (default), rav1e or svt
          --depth D             AVIF: 8, 10 or 12 bits (default 8; a deep source: 10, or 12 from 12)
          --chroma C            AVIF: 444 or 420 (default 444; 420 with svt, which writes only 420)
          --content C           AVIF with aom: automatic (default: screen-content tools when the
                                first frame has at most 256 colours), screen or natural
          --dither D            GIF: none (default), ordered or fs (Floyd-Steinberg), for frames
                                with more than 256 colours
          --lossy N             GIF: LZW-aware lossy compression on gifsicle's scale: colours
                                may move by up to sqrt(10 N) in 8-bit RGB (60: 24.5; 0-20000,
                                20-200 light to strong)
          --resize WxH          fit inside WxH, keeping the aspect ratio (never enlarges)
          --max-size N          fit inside NxN
          --loops N|infinite    total plays to store (default: the source's plays; more than the
                                format stores become its most, with a warning)
          --to-srgb             convert the colours to sRGB and write no colour profile (default:
                                keep the source's profile, byte for byte, and its stored values)
          --strip               leave out the source's Exif and XMP (default: kept)
          --quiet               no progress bar and no summary

        GIF output: alpha below 50 % is transparent, durations round to centiseconds (a frame of
        11-14 ms is written as 20 ms, the shortest browsers honour). WebP rounds to milliseconds;
        APNG and AVIF keep durations exactly. On a terminal a progress bar shows on standard
        error; at the end one line: frames, bytes in -> out, ratio, time (on standard error when
        OUT is -). Input that cannot be decoded: one line, exit 1, and no output file. A file
        that breaks after some frames (truncated, or a frame that fails to decode) converts the
        frames before the break, warns, and exits 0.

        Colour and metadata: the source's ICC profile, Exif and XMP are kept where the target can
        hold them: APNG everything (iCCP, sRGB, gAMA, cHRM, cICP, eXIf, XMP iTXt); WebP the
        profile, Exif and XMP; AVIF the profile, H.273 code points, Exif and XMP; GIF the profile
        only (ICCRGBG1). What the target cannot hold is left out with a warning.
        """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try arguments(args)
        if a.flag("help") { out.print(usage); return 0 }
        try URLInput.setTimeout(a.value("timeout"))
        if let folder = a.value("output-dir") { return try runBatch(a, into: folder, registry: registry, out: &out) }
        if a.value("jobs") != nil { throw UsageError("--jobs applies to --output-dir batches only") }
        guard a.positionals.count == 2 else { throw UsageError("convert takes IN and OUT (or IN... --output-dir DIR --format F)") }
        let (inPath, outPath) = (a.positionals[0], a.positionals[1])
        let plan = try ConvertPlan(a, outPath: outPath)
        try convert(
            inPath, to: outPath, plan: plan, quiet: a.flag("quiet"), label: nil, cache: a.value("cache"),
            registry: registry, out: &out)
        return 0
    }

    /// `convert IN... --output-dir DIR --format F`: every input in one process (the start-up
    /// paid once), each to DIR/NAME.EXT. Every usage error comes before the first file is read.
    static func runBatch(_ a: Arguments, into folder: String, registry: CoderRegistry, out: inout Output) throws -> Int32 {
        guard !a.positionals.isEmpty else { throw UsageError("convert --output-dir takes one or more inputs") }
        guard let option = a.value("format") else { throw UsageError("--output-dir needs --format") }
        let format = try ConvertPlan.format(option, outPath: "")
        let ext = format == "apng" ? "png" : format
        let dir = URL(fileURLWithPath: folder)
        var outputs: [String] = [], claimed: [String: String] = [:]
        for input in a.positionals {
            guard input != "-" else { throw UsageError("--output-dir converts files, not standard input") }
            let url = URLInput.isURL(input) ? URL(string: input) ?? URL(fileURLWithPath: input) : URL(fileURLWithPath: input)
            let name = url.deletingPathExtension().lastPathComponent
            let output = dir.appendingPathComponent(name + "." + ext).path
            if let other = claimed[output] { throw UsageError("'\(other)' and '\(input)' would both be written to \(output)") }
            claimed[output] = input
            outputs.append(output)
        }
        let plan = try ConvertPlan(a, outPath: outputs[0])
        let jobs = min(try a.int("jobs", range: 1...256) ?? ProcessorBudget.availableCores, outputs.count)
        try OutputFolder.create(folder)
        guard jobs > 1 else {
            var failed = false
            for (input, output) in zip(a.positionals, outputs) {
                do {
                    try convert(
                        input, to: output, plan: plan, quiet: a.flag("quiet"), label: input, cache: a.value("cache"),
                        registry: registry, out: &out)
                } catch let error as ToolError {
                    out.error("zoetrope: \(error.message)")
                    failed = true
                }
            }
            return failed ? 1 : 0
        }
        return runInParallel(
            Array(zip(a.positionals, outputs)), jobs: jobs, plan: plan, quiet: a.flag("quiet"), cache: a.value("cache"),
            registry: registry, out: &out)
    }

    /// Canvas bytes the conversions of a parallel batch may hold together (`BatchCanvasGate`).
    static let batchCanvasBytes = 1 << 30

    /// Converts `files` on `jobs` threads, each file as alone (no progress bar), admitted by a
    /// `BatchCanvasGate`; what each prints is kept until the files before it have printed, so
    /// the output is in input order whatever order they finish in.
    private static func runInParallel(
        _ files: [(input: String, output: String)], jobs: Int, plan: ConvertPlan, quiet: Bool, cache: String?,
        registry: CoderRegistry, out: inout Output
    ) -> Int32 {
        let gate = BatchCanvasGate(limit: batchCanvasBytes)
        let next = Locked(0)
        let results = Locked([BatchFileResult?](repeating: nil, count: files.count))
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<jobs {
            DispatchQueue.global().async {
                while true {
                    let i = next.withLock { n in
                        defer { n += 1 }
                        return n
                    }
                    guard i < files.count else { return }
                    let collected = BatchFileResult.Collector()
                    var fileOut = Output(
                        standardOutput: { collected.lines.append((false, $0)) }, standardError: { collected.lines.append((true, $0)) })
                    var failed = false
                    do {
                        try convert(
                            files[i].input, to: files[i].output, plan: plan, quiet: quiet, label: files[i].input, cache: cache,
                            registry: registry, out: &fileOut, showsProgress: false, gate: gate)
                    } catch let error as ToolError {
                        fileOut.error("zoetrope: \(error.message)")
                        failed = true
                    } catch {
                        fileOut.error("zoetrope: \(files[i].input): \(error)")
                        failed = true
                    }
                    let result = BatchFileResult(lines: collected.lines, failed: failed)
                    results.withLock { $0[i] = result }
                    finished.signal()
                }
            }
        }
        var printed = 0, failed = false
        for _ in 0..<files.count {
            finished.wait()
            while printed < files.count, let result = results.withLock({ $0[printed] }) {
                for (toError, line) in result.lines {
                    if toError { out.error(line) } else { out.print(line) }
                }
                failed = failed || result.failed
                printed += 1
            }
        }
        return failed ? 1 : 0
    }

    /// Converts one input; `label` (the input's name in a batch) starts the summary line.
    private static func convert(
        _ inPath: String, to outPath: String, plan: ConvertPlan, quiet: Bool, label: String?,
        cache: String?, registry: CoderRegistry, out: inout Output, showsProgress: Bool = true, gate: BatchCanvasGate? = nil
    ) throws {
        let started = ContinuousClock.now
        let mapped = inPath == "-" || URLInput.isURL(inPath) ? nil : MappedInput(path: inPath)
        let data = try mapped?.data ?? readInput(inPath, cache: cache)
        var source: any FrameSource
        let encoder: any AnimatedImageEncoder
        let decoding: DecodingOptions
        do {
            source = try registry.makeFrameSource(data: data, options: plan.decodingOptions)
            encoder = plan.encoder(for: source.info)
            decoding = plan.decodingOptions(for: source.info, encoder: encoder)
            // A deep source the target keeps deep: a session of its own that decodes RGBA16.
            if decoding != plan.decodingOptions { source = try registry.makeFrameSource(data: data, options: decoding) }
        } catch {
            throw ToolError("\(inPath == "-" ? "standard input" : inPath): \(error)")
        }
        mapped?.dropResidentPages()  // opening the source may have read (indexed) the whole file
        // In a parallel batch, wait until the memory this conversion holds fits beside the others'.
        let cost = BatchCanvasGate.cost(of: source.outputSize, depth: decoding.pixelFormat.channelDepth)
        gate?.enter(cost)
        defer { gate?.leave(cost) }
        let info = source.info
        let asked = plan.loopCount ?? info.loopCount
        // Past the format's range: the nearest count it stores, with a warning.
        let loop = encoder.storedLoopCount(for: asked)
        if loop != asked {
            out.error(
                "zoetrope: warning: \(outPath == "-" ? "standard output" : outPath): \(encoder.encodingFormat) stores at most "
                    + "\(loop) plays; writing \(loop) instead of \(asked)")
        }
        let bar = quiet || !showsProgress ? nil : ProgressBar.standardErrorIfTerminal()
        let summary: AnimationConversion.Summary
        do {
            var options = plan.description.encodingOptions(
                EncodingOptions(loopCount: loop, quality: plan.quality),
                source: info)
            if plan.description.keepsColor {
                options.color = keptColor(options.color, of: info, by: encoder)
            }
            let lost = AnimationConversion.unwrittenParts(of: options, by: encoder)
            if !lost.isEmpty {
                out.error(
                    "zoetrope: warning: \(outPath == "-" ? "standard output" : outPath): \(encoder.encodingFormat) "
                        + "cannot hold the source's \(lost.names.joined(separator: ", ")); left out")
            }
            if encoder.storesAlphaSeparately {
                // A second look at the frames (a session of its own): all opaque, no alpha written.
                options.framesAreOpaque = AnimationConversion.framesAreOpaque(
                    try registry.makeFrameSource(data: data, options: plan.decodingOptions))
                mapped?.dropResidentPages()
            }
            var chosen: QualitySearch.Choice?
            if let target = plan.targetQuality {
                let ladder = QualitySearch.ladder(for: encoder, options: options)
                let choice = try QualitySearch.choose(reaching: target, data: data, decoding: decoding, ladder: ladder, registry: registry)
                let note = "\(ladder.name) \(choice.setting), SSIMULACRA2 \(Formatting.format3(choice.score))"
                if !choice.reached {
                    out.error(
                        "zoetrope: warning: \(inPath): \(ladder.name) \(choice.setting) reaches SSIMULACRA2 "
                            + "\(Formatting.format3(choice.score)), below \(Formatting.format3(target)); writing it")
                } else if !quiet {
                    out.error("zoetrope: \(label ?? inPath): --target-quality \(Formatting.format3(target)): \(note)")
                }
                chosen = choice
            }
            let progress: (Int, Int) -> Void = { done, total in
                mapped?.dropResidentPages()
                bar?.show(fraction: Double(done) / Double(total), label: "frame \(done)/\(total)")
            }
            if let chosen {
                // The search's own encoding of the chosen quality, written as it is.
                if outPath == "-" {
                    FileHandle.standardOutput.write(chosen.output.data)
                } else {
                    try chosen.output.data.write(to: URL(fileURLWithPath: outPath), options: .atomic)
                }
                summary = chosen.output.summary
            } else if outPath == "-" {
                let writer = try encoder.makeWriter(canvasSize: source.outputSize, options: options)
                let result = try AnimationConversion.run(source: source, writer: writer, progress: progress)
                FileHandle.standardOutput.write(result.data)
                summary = result.summary
            } else {
                // Straight to the file (atomically): a writer that spills its output to a
                // temporary file renames it into place instead of reading it back.
                let writer = try encoder.makeWriter(canvasSize: source.outputSize, options: options)
                summary = try AnimationConversion.run(
                    source: source, writer: writer, to: URL(fileURLWithPath: outPath),
                    progress: progress)
            }
        } catch let error as AnimatedImageError {
            bar?.clear()
            throw ToolError("\(inPath == "-" ? "standard input" : inPath): \(error)")
        } catch let error as ToolError {
            bar?.clear()
            throw ToolError("\(inPath == "-" ? "standard input" : inPath): \(error.message)")
        } catch {
            bar?.clear()
            throw ToolError("\(outPath): cannot write")
        }
        bar?.clear()
        if let t = summary.truncation {
            out.error("zoetrope: warning: \(inPath): \(t); converted the \(summary.frameCount) frames before it")
        }
        if !quiet {
            let line = summaryLine(
                frames: summary.frameCount, from: info.format, to: encoder.encodingFormat,
                inBytes: data.count, outBytes: summary.outputByteCount, elapsed: ContinuousClock.now - started)
            let labelled = label.map { "\($0): \(line)" } ?? line
            if outPath == "-" { out.error(labelled) } else { out.print(labelled) }
        }
    }

    /// `args` parsed with convert's options.
    static func arguments(_ args: [String]) throws(UsageError) -> Arguments {
        try Arguments(
            args,
            valueOptions: [
                "format", "output-dir", "quality", "speed", "codec", "depth", "chroma", "content",
                "dither", "lossy", "resize", "max-size", "loops", "cache", "timeout", "jobs", "target-quality",
            ],
            flagOptions: ["lossless", "mixed", "quiet", "help", "to-srgb", "strip"])
    }

    /// "60 frames gif → webp: 1,234 bytes → 456 bytes (2.71× smaller) in 0.52 s".
    static func summaryLine(frames: Int, from: ImageFormat, to: ImageFormat, inBytes: Int, outBytes: Int, elapsed: Duration) -> String {
        let ratio = outBytes > 0 ? Double(inBytes) / Double(outBytes) : 0
        let comparison = ratio >= 1 ? "\(Formatting.format3(ratio))× smaller" : "\(Formatting.format3(1 / max(ratio, 1e-9)))× larger"
        let seconds = elapsed.secondsValue
        return "\(frames) frame\(frames == 1 ? "" : "s") \(from) → \(to): \(Formatting.bytes(inBytes)) → \(Formatting.bytes(outBytes))"
            + " (\(comparison)) in \(Formatting.format3((seconds * 100).rounded() / 100)) s"
    }

    private static func readInput(_ path: String, cache: String?) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        if URLInput.isURL(path) { return try URLInput.reader(for: path, cache: cache).readToEnd() }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw ToolError("\(path): no such file") }
        guard !isDir.boolValue else { throw ToolError("\(path): is a directory") }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
            throw ToolError("\(path): cannot read the file")
        }
        return data
    }
}

extension ConvertCommand {
    /// The source's colour declaration as `encoder` keeps it: a declaration the target cannot
    /// write but can express as an ICC profile becomes that profile
    /// (`ColorManagement.declaration(_:writableBy:precedence:)`); one that cannot be
    /// expressed stays, and is left out with the usual warning.
    static func keptColor(_ color: ColorInfo, of info: AnimationInfo, by encoder: any AnimatedImageEncoder) -> ColorInfo {
        let rule = ColorPrecedence.rule(for: info.format)
        return (try? ColorManagement.declaration(color, writableBy: encoder.writableParts, precedence: rule)) ?? color
    }
}
