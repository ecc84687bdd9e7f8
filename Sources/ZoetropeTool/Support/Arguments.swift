/// A hand-written argument reader: positional values, `--flag`, `--option value` and
/// `--option=value`. Unknown options are errors, so typos never pass silently.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `args` knowing which names take a value and which are flags.
    init(_ args: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("--") || a == "-" {
                if !onlyPositionals, a.hasPrefix("-"), a.count > 1, a != "-" {
                    throw UsageError("unknown option '\(a)'")
                }
                positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = String(a.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if valueOptions.contains(name) {
                if let v = inline {
                    options[name] = v
                } else {
                    guard i < args.count else { throw UsageError("option '--\(name)' needs a value") }
                    options[name] = args[i]
                    i += 1
                }
            } else if flagOptions.contains(name) {
                guard inline == nil else { throw UsageError("option '--\(name)' takes no value") }
                flags.insert(name)
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    func value(_ name: String) -> String? { options[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String, range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let s = options[name] else { return nil }
        guard let v = Int(s), range.contains(v) else {
            throw UsageError("option '--\(name)' needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(s)'")
        }
        return v
    }
}

/// A mistake in how the tool was called: printed with a hint, exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
