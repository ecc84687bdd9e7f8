import Foundation

/// A one-line progress bar redrawn in place on standard error.
final class ProgressBar {
    private let width = 30
    private var lastDrawn = ""

    /// A bar when standard error is a terminal, else nil (nothing is drawn into logs).
    static func standardErrorIfTerminal() -> ProgressBar? {
        isatty(STDERR_FILENO) != 0 ? ProgressBar() : nil
    }

    /// Redraws the bar at `fraction` (0…1) with a label.
    func show(fraction: Double, label: String) {
        let f = min(1, max(0, fraction))
        let filled = Int((f * Double(width)).rounded(.down))
        let line =
            "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(Int(f * 100))% \(label.suffix(40))"
        guard line != lastDrawn else { return }
        lastDrawn = line
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    /// Erases the bar so normal output starts on a clean line.
    func clear() {
        guard !lastDrawn.isEmpty else { return }
        lastDrawn = ""
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
