/// What one file of a parallel `convert --output-dir` batch printed, and whether it failed,
/// kept until the files before it have printed theirs.
struct BatchFileResult: Sendable {
    /// Each line, and whether it goes to standard error.
    var lines: [(toError: Bool, text: String)]
    var failed: Bool

    /// Collects the lines of one conversion on the thread that runs it.
    final class Collector {
        var lines: [(toError: Bool, text: String)] = []
    }
}
