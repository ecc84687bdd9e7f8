@testable import ZoetropeTool

/// One in-process run of the whole tool (`Tool.run`) with its output captured.
struct ToolRun {
    let status: Int32
    let stdout: String
    let stderr: String

    init(_ args: [String]) {
        let r = ToolRunner.inProcess { Tool.run(args, out: &$0) }
        status = r.status
        stdout = r.stdout
        stderr = r.stderr
    }

    /// Object keys in the order they appear in indented JSON output, first to last.
    var jsonKeys: [String] {
        stdout.split(separator: "\n").compactMap { line -> String? in
            let t = line.drop { $0 == " " }
            guard t.hasPrefix("\""), t.contains("\": ") else { return nil }
            let body = t.dropFirst()
            guard let end = body.firstIndex(of: "\"") else { return nil }
            return String(body[..<end])
        }
    }
}
