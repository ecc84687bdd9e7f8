/// The warnings one JPEG collects, bounded: a crafted file with thousands of damaged
/// segments reports the first few and how many more there were.
struct JPEGWarnings {
    static let kept = 8
    private(set) var lines: [String] = []
    private var dropped = 0

    mutating func add(_ line: String) {
        if lines.count < Self.kept {
            lines.append(line)
            return
        }
        dropped += 1
        let more = "and \(dropped) more warning\(dropped == 1 ? "" : "s")"
        if lines.count == Self.kept { lines.append(more) } else { lines[Self.kept] = more }
    }
}
