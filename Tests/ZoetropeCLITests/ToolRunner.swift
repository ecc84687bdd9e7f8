import Foundation

@testable import ZoetropeTool

/// Runs the tool two ways: in-process through `Tool.run` (fast, and lets tests pass their
/// own registry), and as the real built binary (exit codes, streams, files).
enum ToolRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Captured output of one in-process run.
    final class Capture {
        var out: [String] = []
        var err: [String] = []
    }

    /// Runs a command's code path with `registry` in-process.
    static func inProcess(_ run: (inout Output) throws -> Int32) rethrows -> Result {
        let c = Capture()
        var o = Output(standardOutput: { c.out.append($0) }, standardError: { c.err.append($0) })
        let status = try run(&o)
        return Result(status: status, stdout: c.out.joined(separator: "\n"), stderr: c.err.joined(separator: "\n"))
    }

    /// The built `zoetrope` binary beside the test bundle.
    static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("zoetrope")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return CorpusRoot.packageRoot.appendingPathComponent(".build/debug/zoetrope")
    }

    /// Runs the binary with `arguments`, collecting both streams.
    static func binary(_ arguments: [String]) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = arguments
        return try collect(p)
    }

    /// Starts `p` (its executable, arguments and standard input already set), runs
    /// `whileRunning` (to feed a standard input pipe), then collects both output streams
    /// and waits for the exit.
    static func collect(_ p: Process, whileRunning: () throws -> Void = {}) throws -> Result {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        try whileRunning()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// A new empty temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

enum CorpusRoot {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
