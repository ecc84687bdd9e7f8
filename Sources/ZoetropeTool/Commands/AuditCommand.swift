import Foundation
import Zoetrope

/// `zoetrope audit PATH... [--json] [--strict]`: the animated images under some paths and
/// what each costs to play. The `audit-animations` SwiftPM plugin runs this.
enum AuditCommand {
    static let usage = """
        usage: zoetrope audit PATH... [--json] [--strict] [--large-mib N] [--for FORMATS] [--relative-to DIR] [--cache DIR] [--timeout S]

        Looks at every file under the given files and folders (skipping hidden ones and .build),
        decides each format from content, and lists the animated images: path, format, canvas,
        frames, plays, duration of one play (as displayed), how many delays the player clamps
        (≤ 10 ms plays as 100 ms), the decoded size of all frames against one frame ahead, and
        warnings: the extension disagrees with the content, all frames decode to more than
        --large-mib MiB (default 64), clamped delays, an animated format holding a single frame,
        a file that does not decode. Still images are counted, not listed.
          --for          gif, apng, webp, avif (comma-separated): also warn about the colour
                         description and metadata that converting to each would leave out
          --json         {"files": [...], "stillImages", "filesScanned", "warningCount"}
          --strict       exit 1 when there is any warning
          --relative-to  show paths relative to DIR
        A PATH may be an http(s) URL: its body is audited as a file (an HTTP error: one line,
        exit 1); --cache DIR keeps responses in DIR as HTTP caching allows.
        """

    static func run(_ args: [String], registry: CoderRegistry, out: inout Output) throws -> Int32 {
        let a = try Arguments(args, valueOptions: ["large-mib", "relative-to", "cache", "for", "timeout"], flagOptions: ["json", "strict", "help"])
        if a.flag("help") { out.print(usage); return 0 }
        try URLInput.setTimeout(a.value("timeout"))
        guard !a.positionals.isEmpty else { throw UsageError("audit needs at least one PATH") }
        var audit = AnimationAudit(registry: registry, base: a.value("relative-to"), cache: a.value("cache"))
        if let mib = try a.int("large-mib", range: 1...1_048_576) { audit.largeDecodedBytes = mib << 20 }
        if let names = a.value("for") { audit.targets = try AnimationAudit.encoders(named: names) }
        let report = try audit.run(paths: a.positionals)
        out.print(a.flag("json") ? json(for: report).serialized() : table(for: report))
        return a.flag("strict") && report.warningCount > 0 ? 1 : 0
    }

    static func json(for report: AnimationAudit.Report) -> JSONValue {
        let files: [JSONValue] = report.rows.map { row in
            var pairs: [(String, JSONValue)] = [
                ("path", .string(row.path)),
                ("format", row.format.map { .string($0.identifier) } ?? .null),
            ]
            if let info = row.info {
                let display = info.displayDurations().reduce(.zero, +)
                pairs += [
                    ("width", .int(info.canvasSize.width)),
                    ("height", .int(info.canvasSize.height)),
                    ("frameCount", .int(info.frameCount)),
                    ("plays", Formatting.playsJSON(info.loopCount)),
                    ("totalDurationMs", Formatting.millisecondsJSON(info.totalDuration)),
                    ("displayTotalDurationMs", Formatting.millisecondsJSON(display)),
                    ("clampedDelays", .int(row.clampedDelays)),
                    ("allFramesBytes", .int(row.allFramesBytes ?? 0)),
                    ("oneAheadBytes", .int(row.oneAheadBytes ?? 0)),
                ]
            }
            if let e = row.error { pairs.append(("error", .string(e))) }
            pairs.append(("warnings", .array(row.warnings.map { .string($0) })))
            return .object(pairs)
        }
        return .object([
            ("files", .array(files)),
            ("stillImages", .int(report.stillImages)),
            ("filesScanned", .int(report.filesScanned)),
            ("warningCount", .int(report.warningCount)),
        ])
    }

    static let headers = ["PATH", "FORMAT", "CANVAS", "FRAMES", "PLAYS", "DURATION", "CLAMPED", "ALL FRAMES", "1 AHEAD", "WARNINGS"]

    /// One row of cells per file, in `headers` order.
    static func cells(for row: AuditRow) -> [String] {
        let format = row.format?.identifier ?? "?"
        guard let info = row.info else {
            let notes = ([row.error].compactMap { $0 } + row.warnings).joined(separator: "; ")
            return [row.path, format, "-", "-", "-", "-", "-", "-", "-", notes]
        }
        let display = info.displayDurations().reduce(.zero, +)
        return [
            row.path, format, "\(info.canvasSize.width)×\(info.canvasSize.height)", "\(info.frameCount)",
            info.loopCount.description, Formatting.milliseconds(display),
            row.clampedDelays == 0 ? "0" : "\(row.clampedDelays)/\(info.frameCount)",
            shortBytes(row.allFramesBytes ?? 0), shortBytes(row.oneAheadBytes ?? 0),
            row.warnings.isEmpty ? "-" : row.warnings.joined(separator: "; "),
        ]
    }

    static func table(for report: AnimationAudit.Report) -> String {
        let summary =
            "\(report.rows.count) file\(report.rows.count == 1 ? "" : "s") listed, "
            + "\(report.warningCount) warning\(report.warningCount == 1 ? "" : "s"); "
            + "\(report.stillImages) still image\(report.stillImages == 1 ? "" : "s") not listed; "
            + "\(report.filesScanned) file\(report.filesScanned == 1 ? "" : "s") scanned"
        guard !report.rows.isEmpty else { return "no animated images found; " + summary }
        let rows = [headers] + report.rows.map(cells(for:))
        var widths = [Int](repeating: 0, count: headers.count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        let lines = rows.map { r in
            r.enumerated().map { i, c in
                i == r.count - 1 ? c : c + String(repeating: " ", count: widths[i] - c.count)
            }.joined(separator: "  ")
        }
        return (lines + [summary]).joined(separator: "\n")
    }

    /// "768 B", "1.5 KiB", "64 MiB".
    static func shortBytes(_ n: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = Double(n), u = 0
        while v >= 1024, u < units.count - 1 { v /= 1024; u += 1 }
        return "\(u == 0 ? "\(n)" : Formatting.format1(v)) \(units[u])"
    }
}
