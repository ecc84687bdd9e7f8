import Foundation

/// Small encoded images the tool's tests read: the audit fixture package's files, written
/// by Scripts/make-audit-fixtures.py (their contents are described there).
enum EncodedFileFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/AuditFixture/Sources/AuditFixture/Resources").path

    /// 8×8 GIF, 4 frames (red, green, blue, red) of 10, 50, 0 and 50 ms, looping forever.
    static let spinnerGIF = folder + "/spinner.gif"
    /// 6×4 APNG, 3 frames of 100 ms, 2 plays.
    static let pulseAPNG = folder + "/pulse.png"
}
