import Zoetrope

/// One file in an audit: what it is, what playing it costs, and what looks wrong.
struct AuditRow {
    /// The path as shown (relative to the audit's base folder when one is given).
    var path: String
    /// The format sniffed from content, or nil when no coder recognises it.
    var format: ImageFormat?
    /// The header, or nil when the file could not be decoded (see `error`).
    var info: AnimationInfo?
    /// Why the file could not be decoded.
    var error: String?
    /// Everything a person should look at, one sentence each.
    var warnings: [String] = []

    /// Delays the default policy changes (≤ 10 ms plays as 100 ms).
    var clampedDelays: Int {
        info.map { i in i.frameDurations.filter { DelayPolicy.default.clamps($0) }.count } ?? 0
    }

    /// Decoded bytes of every frame: what keeping all frames costs.
    var allFramesBytes: Int? { info?.allFramesByteCount }

    /// Decoded bytes with one frame ahead: the shown frame plus the next.
    var oneAheadBytes: Int? {
        guard let info else { return nil }
        let (b, o) = info.frameByteCount.multipliedReportingOverflow(by: min(2, info.frameCount))
        return o ? .max : b
    }
}
