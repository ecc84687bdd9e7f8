import Zoetrope
import ZoetropeQuality

/// `zoetrope compare A B [--tolerance N] [--json]`: two animations of any formats, frame by
/// frame on the composited canvases and timeline by timeline (`AnimationComparison`).
enum CompareCommand {
    static let usage = """
        usage: zoetrope compare A B [--tolerance N] [--psnr-only] [--json]

        Compares two animations of any of the formats frame by frame on their composited
        canvases (straight RGBA; a pixel fully transparent in both is equal whatever its
        colour), and their canvas, frame count, plays, and raw and displayed durations. Prints
        per-frame and pooled PSNR, the perceptual SSIMULACRA2 score (100 identical, about 90
        visually lossless, 70 high quality, 50 medium; per frame, mean and lowest), the largest
        channel difference and the identical frames.
          --tolerance N   the largest channel difference (0-255) that still counts as equal
                          (default 0: exact)
          --psnr-only     leave SSIMULACRA2 out (it costs several times the decoding for
                          each frame that differs)
          --json          one JSON object

        Exit status: 0 equal within the tolerance, 1 they differ (each difference named),
        2 a usage error or an input that cannot be read or decoded.
        """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: ["tolerance"], flagOptions: ["json", "help", "psnr-only"])
        if a.flag("help") { out.print(usage); return 0 }
        guard a.positionals.count == 2 else {
            throw UsageError("compare needs two files, got \(a.positionals.count)")
        }
        let tolerance = try a.int("tolerance", range: 0...255) ?? 0
        let paths = a.positionals
        let comparison: AnimationComparison
        do {
            let inputs = try paths.map { try ImageInput.file($0) }
            comparison = try AnimationComparison(
                inputs[0].makeFrameSource(registry: registry),
                inputs[1].makeFrameSource(registry: registry), perceptual: !a.flag("psnr-only"))
        } catch let error as ToolError {
            out.error("zoetrope: \(error.message)")
            return 2
        } catch {
            out.error("zoetrope: \(error)")
            return 2
        }
        let differences = comparison.differences(tolerance: tolerance)
        if a.flag("json") {
            out.print(json(comparison, paths: paths, tolerance: tolerance, differences: differences).serialized())
        } else {
            out.print(text(comparison, paths: paths, tolerance: tolerance, differences: differences))
        }
        return differences.isEmpty ? 0 : 1
    }

    static func psnrText(_ db: Double?) -> String {
        guard let db else { return "none (no frame compared)" }
        return db.isInfinite ? "∞ (identical)" : Formatting.format3(db) + " dB"
    }

    static func scoreText(_ score: Double?) -> String {
        score.map { Formatting.format3($0) } ?? "none"
    }

    static func scoreJSON(_ score: Double?) -> JSONValue {
        score.map { .double(($0 * 1000).rounded() / 1000) } ?? .null
    }

    static func psnrJSON(_ db: Double?) -> JSONValue {
        guard let db, db.isFinite else { return .null }
        return .double((db * 1000).rounded() / 1000)
    }

    static func text(_ c: AnimationComparison, paths: [String], tolerance: Int, differences: [AnimationDifference]) -> String {
        let (x, y) = (c.first, c.second)
        func pair(_ a: String, _ b: String) -> String { a == b ? a : "\(a) | \(b)" }
        var lines = [
            "A  \(paths[0]) (\(x.format.identifier))",
            "B  \(paths[1]) (\(y.format.identifier))",
            "  canvas     \(pair(x.canvasSize.description, y.canvasSize.description))",
            "  frames     \(pair(String(x.frameCount), String(y.frameCount)))",
            "  plays      \(pair(x.loopCount.description, y.loopCount.description))",
            "  durations  \(pair(Formatting.durationRuns(x.frameDurations), Formatting.durationRuns(y.frameDurations))) (raw)",
            "             \(pair(Formatting.durationRuns(c.firstDisplayedDurations), Formatting.durationRuns(c.secondDisplayedDurations))) (displayed)",
        ]
        if c.comparedFrameCount == 0 {
            lines.append("  pixels     not compared (the canvases differ)")
        } else {
            lines.append(
                "  pixels     \(c.comparedFrameCount) frame\(c.comparedFrameCount == 1 ? "" : "s") compared, "
                    + "\(c.identicalFrameCount) identical; max channel difference \(c.maxChannelDifference); "
                    + "pooled PSNR \(psnrText(c.pooledPSNR))")
            if let mean = c.meanSSIMULACRA2 {
                lines.append("  perceived  SSIMULACRA2 mean \(scoreText(mean)), lowest \(scoreText(c.minSSIMULACRA2))")
            }
            for f in c.frames where !f.isIdentical {
                lines.append(
                    "  frame \(String(f.index).padding(toLength: 5, withPad: " ", startingAt: 0))"
                        + "max difference \(f.maxChannelDifference), \(f.differingPixelCount) pixel"
                        + "\(f.differingPixelCount == 1 ? "" : "s") differ, PSNR \(psnrText(f.psnr))"
                        + (f.ssimulacra2.map { ", SSIMULACRA2 \(scoreText($0))" } ?? ""))
            }
        }
        if differences.isEmpty {
            lines.append(tolerance == 0 ? "equal" : "equal within tolerance \(tolerance)")
        } else {
            lines.append("differ: " + differences.map(\.description).joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ c: AnimationComparison, paths: [String], tolerance: Int, differences: [AnimationDifference]) -> JSONValue {
        func side(_ info: AnimationInfo, _ path: String, _ displayed: [FrameDuration]) -> JSONValue {
            .object([
                ("file", .string(path)),
                ("format", .string(info.format.identifier)),
                ("width", .int(info.canvasSize.width)),
                ("height", .int(info.canvasSize.height)),
                ("frameCount", .int(info.frameCount)),
                ("plays", Formatting.playsJSON(info.loopCount)),
                ("durationsMs", .array(info.frameDurations.map(Formatting.millisecondsJSON))),
                ("displayDurationsMs", .array(displayed.map(Formatting.millisecondsJSON))),
            ])
        }
        let frames: [JSONValue] = c.frames.map { f in
            .object([
                ("index", .int(f.index)),
                ("identical", .bool(f.isIdentical)),
                ("maxChannelDifference", .int(f.maxChannelDifference)),
                ("differingPixels", .int(f.differingPixelCount)),
                ("psnr", psnrJSON(f.psnr)),
                ("ssimulacra2", scoreJSON(f.ssimulacra2)),
            ])
        }
        return .object([
            ("a", side(c.first, paths[0], c.firstDisplayedDurations)),
            ("b", side(c.second, paths[1], c.secondDisplayedDurations)),
            ("tolerance", .int(tolerance)),
            ("equal", .bool(differences.isEmpty)),
            ("differences", .array(differences.map { .string($0.description) })),
            ("comparedFrames", .int(c.comparedFrameCount)),
            ("identicalFrames", .int(c.identicalFrameCount)),
            ("maxChannelDifference", .int(c.maxChannelDifference)),
            ("pooledPSNR", psnrJSON(c.pooledPSNR)),
            ("meanSSIMULACRA2", scoreJSON(c.meanSSIMULACRA2)),
            ("minSSIMULACRA2", scoreJSON(c.minSSIMULACRA2)),
            ("frames", .array(frames)),
        ])
    }
}
