import Foundation
import PackagePlugin

/// `swift package audit-animations [PATH...] [--json] [--strict] [--target NAME]`
///
/// Lists the animated images in the package's targets (or the given paths): format
/// sniffed from content, canvas, frames, plays, duration, clamped delays, decoded sizes
/// and warnings. The work is done by the built `zoetrope audit` command, so the plugin
/// knows every format the tool's registered coders know.
@main
struct AuditAnimations: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let json = extractor.extractFlag(named: "json") > 0
        let strict = extractor.extractFlag(named: "strict") > 0
        let targetNames = extractor.extractOption(named: "target")
        let largeMiB = extractor.extractOption(named: "large-mib").last
        let root = context.package.directoryURL.path

        var paths = extractor.remainingArguments.map { path in
            path.hasPrefix("/") ? path : root + "/" + path
        }
        if paths.isEmpty {
            let targets = targetNames.isEmpty
                ? context.package.targets
                : try context.package.targets(named: targetNames)
            // Every file SwiftPM sees in each target: sources, resources and unhandled files.
            // (`Target.directoryURL` needs tools version 6.1; this package declares 6.0.)
            paths = targets.flatMap { $0.sourceModule?.sourceFiles.map(\.url.path) ?? [] }
        }
        guard !paths.isEmpty else {
            Diagnostics.remark("audit-animations: the package has no targets to scan")
            return
        }

        var toolArguments = ["audit", "--relative-to", root]
        if json { toolArguments.append("--json") }
        if strict { toolArguments.append("--strict") }
        if let largeMiB { toolArguments += ["--large-mib", largeMiB] }
        toolArguments.append("--")
        toolArguments += paths

        let tool = try context.tool(named: "ZoetropeTool")  // the target that builds the `zoetrope` executable
        let process = Process()
        process.executableURL = tool.url
        process.arguments = toolArguments
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw AuditFailure(status: process.terminationStatus, strict: strict)
        }
    }
}

/// The tool reported warnings under `--strict`, or could not run.
struct AuditFailure: Error, CustomStringConvertible {
    let status: Int32
    let strict: Bool

    var description: String {
        strict && status == 1
            ? "audit-animations: warnings found (--strict)"
            : "audit-animations: zoetrope audit exited with status \(status)"
    }
}
