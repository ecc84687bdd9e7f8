import Foundation
@testable import zoetrope

/// One in-process run of the tool with its output captured, for the tool's own tests.
struct ToolRun {
    let status: Int32
    let stdout: String
    let stderr: String

    init(_ args: [String]) {
        let captured = Captured()
        var out = Output(standardOutput: { captured.out.append($0) }, standardError: { captured.err.append($0) })
        status = Tool.run(args, out: &out)
        stdout = captured.out.joined(separator: "\n")
        stderr = captured.err.joined(separator: "\n")
    }

    /// Object keys in the order they appear in indented JSON output, first to last.
    var jsonKeys: [String] {
        stdout.split(separator: "\n").compactMap { line -> String? in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("\""), t.contains("\": ") else { return nil }
            let body = t.dropFirst()
            guard let end = body.firstIndex(of: "\"") else { return nil }
            return String(body[..<end])
        }
    }

    private final class Captured {
        var out: [String] = []
        var err: [String] = []
    }
}
