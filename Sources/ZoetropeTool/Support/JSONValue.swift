/// A JSON value that keeps object keys in insertion order, so the tool's output has a
/// stable, readable shape. Written by hand to keep the tool free of outside packages.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// Compact or indented JSON text.
    func serialized(indent: Int? = 2) -> String {
        var out = ""
        write(into: &out, indent: indent, level: 0)
        return out
    }

    private func write(into out: inout String, indent: Int?, level: Int) {
        let nl = indent == nil ? "" : "\n"
        let pad = { (l: Int) in String(repeating: " ", count: (indent ?? 0) * l) }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
            } else {
                out += "null"
            }
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, v) in items.enumerated() {
                out += pad(level + 1)
                v.write(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < items.count ? "," : "") + nl
            }
            out += pad(level) + "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (k, v)) in pairs.enumerated() {
                out += pad(level + 1)
                JSONValue.escape(k, into: &out)
                out += indent == nil ? ":" : ": "
                v.write(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < pairs.count ? "," : "") + nl
            }
            out += pad(level) + "}"
        }
    }

    private static func escape(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += "\\u" + String(u.value, radix: 16).leftPad(4)
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}

extension String {
    func leftPad(_ n: Int, _ c: Character = "0") -> String {
        count >= n ? self : String(repeating: c, count: n - count) + self
    }
}
