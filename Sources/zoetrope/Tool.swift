import Foundation
import Zoetrope

/// The command dispatcher: `zoetrope COMMAND ...`.
enum Tool {
    static let version = "0.1.0"

    static let usage = """
    zoetrope \(version): decode, inspect, play and convert animated images (GIF, APNG, WebP, AVIF)

    usage: zoetrope COMMAND [ARGS]

    commands:
      info FILE... [--json]        format, canvas, frames, plays, durations, decoded sizes
      frames FILE --output DIR     every frame as PNG, plus manifest.json
      frames FILE --sheet OUT.png  a contact sheet: every frame labelled with index and duration
      play [FILE]                  play in the terminal (the built-in demo without FILE)
      bench FILE... [--json]       decode speed, time to first frame, peak memory, bytes held
      audit PATH... [--json]       the animated images under some paths, their cost and warnings
      trace FILE [--json]          the player tick by tick on a simulated refresh
      convert IN OUT [options]     re-encode as GIF, APNG, WebP or AVIF (format from OUT)
    Use --demo in place of FILE for the built-in countdown animation.
    `zoetrope COMMAND --help` describes a command.

    Exit status: 0 success, 1 an input could not be decoded, 2 a usage error.
    """

    static func run(_ arguments: [String], out: inout Output) -> Int32 {
        guard let command = arguments.first else {
            out.error(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        let registry = CoderRegistry.withBuiltInCoders()
        do {
            switch command {
            case "--help", "-h", "help":
                out.print(usage)
                return 0
            case "--version":
                out.print("zoetrope \(version)")
                return 0
            case "info":
                return try InfoCommand.run(rest, registry: registry, out: &out)
            case "frames":
                return try FramesCommand.run(rest, registry: registry, out: &out)
            case "play":
                return try PlayCommand.run(rest, registry: registry, out: &out)
            case "bench":
                return try BenchCommand.run(rest, registry: registry, out: &out)
            case "audit":
                return try AuditCommand.run(rest, registry: registry, out: &out)
            case "trace":
                return try TraceCommand.run(rest, registry: registry, out: &out)
            case "convert":
                return try ConvertCommand.run(rest, registry: registry, out: &out)
            default:
                throw UsageError("unknown command '\(command)'")
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
