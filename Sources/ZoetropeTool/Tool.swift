import Foundation
import Zoetrope
import ZoetropeBuiltInCoders

/// The command dispatcher: `zoetrope COMMAND ...`.
enum Tool {
    static let version = "0.3.0"

    /// Every command, in the order `--help` lists them: add a command here.
    static let commands: [ToolCommand] = [
        ToolCommand(
            name: "info",
            usage: [
                ("info FILE... [--json]", "format, canvas, frames, plays, durations, decoded sizes")
            ], run: { try InfoCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "frames",
            usage: [
                ("frames FILE --output DIR", "every frame as PNG, plus manifest.json"),
                ("frames FILE --sheet OUT.png", "a contact sheet: every frame labelled with index and duration"),
            ], run: { try FramesCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "play",
            usage: [
                ("play [FILE]", "play in the terminal (the built-in demo without FILE)")
            ], run: { try PlayCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "bench",
            usage: [
                ("bench FILE... [--json]", "decode speed, time to first frame, peak memory, bytes held")
            ], run: { try BenchCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "audit",
            usage: [
                ("audit PATH... [--json]", "the animated images under some paths, their cost and warnings")
            ], run: { try AuditCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "trace",
            usage: [
                ("trace FILE [--json]", "the player tick by tick on a simulated refresh")
            ], run: { try TraceCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "compare",
            usage: [
                ("compare A B [--tolerance N]", "frame-by-frame PSNR and differences; exit 0 equal, 1 differ")
            ], run: { try CompareCommand.run($0, registry: $1, out: &$2) }),
        ToolCommand(
            name: "convert",
            usage: [
                ("convert IN OUT [options]", "re-encode as GIF, APNG, WebP or AVIF (format from OUT)")
            ], run: { try ConvertCommand.run($0, registry: $1, out: &$2) }),
    ]

    static var usage: String {
        let lines = commands.flatMap(\.usage).map { line in
            "  " + line.synopsis.padding(toLength: max(29, line.synopsis.count + 1), withPad: " ", startingAt: 0) + line.summary
        }
        return """
            zoetrope \(version): decode, inspect, play and convert animated images (GIF, APNG, WebP, AVIF)

            usage: zoetrope COMMAND [ARGS]

            commands:
            \(lines.joined(separator: "\n"))
            Use --demo in place of FILE for the built-in countdown animation, - for standard
            input (info, frames, play: read as it arrives; convert), and an http(s) URL (info,
            frames, play: read as it downloads; convert, audit), with --cache DIR for a disk cache.
            `zoetrope COMMAND --help` describes a command.

            Exit status: 0 success, 1 an input could not be decoded, 2 a usage error.
            """
    }

    static func run(_ arguments: [String], out: inout Output) -> Int32 {
        guard let command = arguments.first else {
            out.error(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        // ZoetropeBuiltInCoders, not ZoetropeCodecs: the latter's URL loading links
        // FoundationNetworking and libcurl's tree, which would double what the tool loads at
        // every start. URLs are read by the zoetrope-fetch helper (URLInput).
        let registry = CoderRegistry.withBuiltInCoders()
        do {
            switch command {
            case "--help", "-h", "help":
                out.print(usage)
                return 0
            case "--version":
                out.print("zoetrope \(version)")
                return 0
            default:
                guard let c = commands.first(where: { $0.name == command }) else {
                    throw UsageError("unknown command '\(command)'")
                }
                return try c.run(rest, registry, &out)
            }
        } catch let error as UsageError {
            out.error("zoetrope: \(error.message) (see 'zoetrope --help')")
            return 2
        } catch let error as ToolError {
            out.error("zoetrope: \(error.message)")
            return 1
        } catch {
            out.error("zoetrope: \(error)")
            return 1
        }
    }
}
