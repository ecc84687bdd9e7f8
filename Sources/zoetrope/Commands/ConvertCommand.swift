import Foundation
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeWebP

/// `zoetrope convert IN OUT`: decodes any supported animation and writes it as GIF, APNG,
/// WebP or AVIF, decoding frame i + 1 while frame i is encoded.
enum ConvertCommand {
    static let usage = """
    usage: zoetrope convert IN OUT [options]

    Converts an animation (GIF, APNG, WebP, AVIF; the input's format is read from its content)
    to the format of OUT's extension (.gif, .png/.apng, .webp, .avif) or --format.
    IN may be - (standard input); OUT may be - (standard output, needs --format).

      --format F            gif | apng | webp | avif (default: from OUT's extension)
      --quality Q           0-100: lossy WebP/AVIF at quality Q (AVIF default 70)
      --lossless            lossless WebP (the WebP default) or AVIF
      --mixed               WebP: lossy or lossless per frame, whichever is smaller
      --speed S             AVIF: 0 (slowest, smallest) to 10 (fastest); default 6
      --codec C             AVIF: aom (default), rav1e or svt
      --depth D             AVIF: 8 (default) or 10 bits
      --chroma C            AVIF: 444 or 420 (default 444; 420 with svt, which writes only 420)
      --dither D            GIF: none (default), ordered or fs (Floyd-Steinberg), for frames
                            with more than 256 colours
      --resize WxH          fit inside WxH, keeping the aspect ratio (never enlarges)
      --max-size N          fit inside NxN
      --loops N|infinite    total plays to store (default: the source's plays)
      --quiet               no progress bar and no summary

    GIF output: alpha below 50 % is transparent, durations round to centiseconds (a frame of
    11-14 ms is written as 20 ms, the shortest browsers honour). WebP rounds to milliseconds;
    APNG and AVIF keep durations exactly. On a terminal a progress bar shows on standard
    error; at the end one line: frames, bytes in -> out, ratio, time (on standard error when
    OUT is -). Input that cannot be decoded: one line, exit 1, and no output file.
    """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try arguments(args)
        if a.flag("help") { out.print(usage); return 0 }
        guard a.positionals.count == 2 else { throw UsageError("convert takes IN and OUT") }
        let (inPath, outPath) = (a.positionals[0], a.positionals[1])
        let plan = try ConvertPlan(a, outPath: outPath)

        let started = ContinuousClock.now
        let mapped = inPath == "-" ? nil : MappedInput(path: inPath)
        let data = try mapped?.data ?? readInput(inPath)
        let source: any FrameSource
        do {
            source = try registry.makeFrameSource(data: data, options: DecodingOptions(targetSize: plan.targetSize))
        } catch {
            throw ToolError("\(inPath == "-" ? "standard input" : inPath): \(error)")
        }
        mapped?.dropResidentPages() // opening the source may have read (indexed) the whole file
        let info = source.info
        let loop = plan.loopCount ?? info.loopCount
        let bar = a.flag("quiet") ? nil : ProgressBar.standardErrorIfTerminal()
        let summary: AnimationConversion.Summary
        do {
            let writer = try plan.encoder.makeWriter(canvasSize: source.outputSize,
                                                     options: EncodingOptions(loopCount: loop, quality: plan.quality))
            let progress: (Int, Int) -> Void = { done, total in
                mapped?.dropResidentPages()
                bar?.show(fraction: Double(done) / Double(total), label: "frame \(done)/\(total)")
            }
            if outPath == "-" {
                let result = try AnimationConversion.run(source: source, writer: writer, progress: progress)
                FileHandle.standardOutput.write(result.data)
                summary = result.summary
            } else {
                // Straight to the file (atomically): a writer that spills its output to a
                // temporary file renames it into place instead of reading it back.
                summary = try AnimationConversion.run(source: source, writer: writer, to: URL(fileURLWithPath: outPath),
                                                      progress: progress)
            }
        } catch let error as AnimatedImageError {
            bar?.clear()
            throw ToolError("\(inPath == "-" ? "standard input" : inPath): \(error)")
        } catch {
            bar?.clear()
            throw ToolError("\(outPath): cannot write")
        }
        bar?.clear()
        if let t = summary.truncation {
            out.error("zoetrope: warning: \(inPath): \(t); converted the \(summary.frameCount) frames before it")
        }
        if !a.flag("quiet") {
            let line = summaryLine(frames: summary.frameCount, from: info.format, to: plan.encoder.encodingFormat,
                                   inBytes: data.count, outBytes: summary.outputByteCount, elapsed: ContinuousClock.now - started)
            if outPath == "-" { out.error(line) } else { out.print(line) }
        }
        return 0
    }

    /// `args` parsed with convert's options.
    static func arguments(_ args: [String]) throws(UsageError) -> Arguments {
        try Arguments(args, valueOptions: ["format", "quality", "speed", "codec", "depth", "chroma", "dither",
                                           "resize", "max-size", "loops"],
                      flagOptions: ["lossless", "mixed", "quiet", "help"])
    }

    /// "60 frames gif → webp: 1,234 bytes → 456 bytes (2.71× smaller) in 0.52 s".
    static func summaryLine(frames: Int, from: ImageFormat, to: ImageFormat, inBytes: Int, outBytes: Int, elapsed: Duration) -> String {
        let ratio = outBytes > 0 ? Double(inBytes) / Double(outBytes) : 0
        let comparison = ratio >= 1 ? "\(Formatting.format3(ratio))× smaller" : "\(Formatting.format3(1 / max(ratio, 1e-9)))× larger"
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return "\(frames) frame\(frames == 1 ? "" : "s") \(from) → \(to): \(Formatting.bytes(inBytes)) → \(Formatting.bytes(outBytes))"
            + " (\(comparison)) in \(Formatting.format3((seconds * 100).rounded() / 100)) s"
    }

    private static func readInput(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw ToolError("\(path): no such file") }
        guard !isDir.boolValue else { throw ToolError("\(path): is a directory") }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
            throw ToolError("\(path): cannot read the file")
        }
        return data
    }
}
