import Zoetrope

/// Numbers as the tool prints them.
enum Formatting {
    /// A duration in milliseconds, exact when whole, else to 3 decimals.
    static func milliseconds(_ d: FrameDuration) -> String {
        let ms = d.milliseconds
        if ms == ms.rounded(), let whole = Int64(exactly: ms) { return "\(whole) ms" }
        return String(format3(ms)) + " ms"
    }

    /// Milliseconds as a JSON number, rounded to 0.001 ms.
    static func millisecondsJSON(_ d: FrameDuration) -> JSONValue {
        let ms = (d.milliseconds * 1000).rounded() / 1000
        if ms == ms.rounded(), let whole = Int(exactly: ms) { return .int(whole) }
        return .double(ms)
    }

    static func format3(_ v: Double) -> String {
        // Past 2^53 / 1000 a Double has no thousandths to show (and Int64 may not hold it).
        guard abs(v) < 9e12 else { return "\(v)" }
        let scaled = Int64((v * 1000).rounded())
        let whole = scaled / 1000, frac = abs(scaled % 1000)
        var f = String(frac).leftPad(3)
        while f.hasSuffix("0") { f.removeLast() }
        return f.isEmpty ? "\(whole)" : "\(whole).\(f)"
    }

    /// Bytes with thousands separators and a binary-unit hint: "919,296 bytes (898 KiB)".
    static func bytes(_ n: Int) -> String {
        var s = String(n)
        var i = s.count - 3
        while i > 0 { s.insert(",", at: s.index(s.startIndex, offsetBy: i)); i -= 3 }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var v = Double(n), u = -1
        while v >= 1024, u < units.count - 1 { v /= 1024; u += 1 }
        return u < 0 ? "\(s) bytes" : "\(s) bytes (\(format1(v)) \(units[u]))"
    }

    static func format1(_ v: Double) -> String {
        guard abs(v) < 9e14 else { return "\(v)" }
        let t = Int64((v * 10).rounded())
        return t % 10 == 0 ? "\(t / 10)" : "\(t / 10).\(t % 10)"
    }

    /// Durations as runs: "50 ms ×100" or "100 ms, 50 ms ×3".
    static func durationRuns(_ ds: [FrameDuration]) -> String {
        var parts: [String] = []
        var i = 0
        while i < ds.count {
            var j = i
            while j + 1 < ds.count, ds[j + 1] == ds[i] { j += 1 }
            let n = j - i + 1
            parts.append(milliseconds(ds[i]) + (n > 1 ? " ×\(n)" : ""))
            i = j + 1
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// Plays as the manifest spells them.
    static func playsJSON(_ loop: LoopCount) -> JSONValue {
        switch loop {
        case .infinite: .string("infinite")
        case .plays(let n): .int(n)
        }
    }
}
