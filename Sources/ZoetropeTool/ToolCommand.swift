import Zoetrope

/// One command of the tool: its name, the lines it adds to `zoetrope --help` (synopsis and
/// summary), and what runs it. `Tool.commands` is the table of them all.
struct ToolCommand: Sendable {
    let name: String
    /// (synopsis, summary) lines for the overview; `COMMAND --help` prints the command's own usage.
    let usage: [(synopsis: String, summary: String)]
    let run: @Sendable (_ arguments: [String], _ registry: CoderRegistry, _ out: inout Output) throws -> Int32
}
