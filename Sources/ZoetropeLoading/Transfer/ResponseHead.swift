/// A response head read line by line, as a transport hands the lines over: status lines,
/// field lines and the blank line that ends a head. Interim (1xx) heads are skipped. Every
/// byte is the server's, so the head is bounded in bytes and fields, and no line can trap.
struct ResponseHead: Sendable {
    /// The most bytes of heads (interim ones included) one response may send.
    static let byteLimit = 256 << 10
    /// The most field lines one head may have.
    static let fieldLimit = 1000

    /// What one line did.
    enum Step: Equatable, Sendable {
        /// More lines are needed.
        case more
        /// The final head is complete.
        case complete
        /// The head cannot be an HTTP response head; the reason says why.
        case invalid(String)
    }

    /// The final head's status code, once `complete`.
    private(set) var status = 0
    /// The protocol version of the status line ("HTTP/1.1", "HTTP/2").
    private(set) var version = "HTTP/1.1"
    /// The fields, names in their usual capitalisation ("Content-Length"), repeated fields
    /// joined with ", " (RFC 9110 §5.3).
    private(set) var fields: [String: String] = [:]
    /// True once the final head is complete: later lines (trailers) change nothing.
    private(set) var isComplete = false
    private var bytes = 0
    private var fieldCount = 0
    private var lastName: String?
    private var sawStatus = false

    /// Takes one line, with or without its line ending.
    mutating func take<Bytes: Collection<UInt8>>(_ line: Bytes) -> Step {
        if isComplete { return .complete }
        let (total, overflow) = bytes.addingReportingOverflow(line.count)
        guard !overflow, total <= Self.byteLimit else {
            return .invalid("the response head is over \(Self.byteLimit >> 10) KiB")
        }
        bytes = total
        var content = Array(line)
        while let last = content.last, last == 0x0A || last == 0x0D { content.removeLast() }
        if !sawStatus { return statusLine(content) }
        if content.isEmpty { return endOfHead() }
        if content[0] == 0x20 || content[0] == 0x09 {
            // A folded line continues the previous field (RFC 9112 §5.2).
            guard let name = lastName else { return .invalid("the response head starts with a folded line") }
            fields[name, default: ""] += " " + Self.text(Self.trimmed(content[...]))
            return .more
        }
        guard let colon = content.firstIndex(of: 0x3A), colon > 0 else { return .more }  // not a field: ignored
        let rawName = content[..<colon]
        guard rawName.allSatisfy(Self.isTokenByte) else { return .more }
        fieldCount += 1
        guard fieldCount <= Self.fieldLimit else { return .invalid("the response head has over \(Self.fieldLimit) fields") }
        let name = Self.canonical(rawName)
        let value = Self.text(Self.trimmed(content[(colon + 1)...]))
        if fields[name] == nil { fields[name] = value } else { fields[name]!.append(", " + value) }
        lastName = name
        return .more
    }

    /// "HTTP/" version, a space, three digits, then an optional reason.
    private mutating func statusLine(_ line: [UInt8]) -> Step {
        guard line.starts(with: Array("HTTP/".utf8)), let space = line.firstIndex(of: 0x20), space > 5 else {
            return .invalid("the response does not start with an HTTP status line")
        }
        let digits = line[(space + 1)...].prefix(3)
        let afterDigits = line.index(space + 1, offsetBy: digits.count)
        guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }), digits.first != 0x30,
            afterDigits == line.endIndex || line[afterDigits] == 0x20
        else { return .invalid("the response's status line has no three-digit status") }
        status = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        version = Self.text(line[..<space])
        fields = [:]
        fieldCount = 0
        lastName = nil
        sawStatus = true
        return .more
    }

    /// A blank line: the end of an interim head (another follows) or of the final one.
    private mutating func endOfHead() -> Step {
        if (100..<200).contains(status) {
            sawStatus = false
            return .more
        }
        isComplete = true
        return .complete
    }

    /// The field's value without the spaces and tabs around it.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
        return slice
    }

    /// Bytes as text, one character per byte (ISO 8859-1), so that no value fails to convert.
    private static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// "content-length" as "Content-Length": HTTP/2 sends names in lower case, and
    /// Foundation's `HTTPURLResponse` reads some fields by their usual spelling.
    private static func canonical(_ name: ArraySlice<UInt8>) -> String {
        var upper = true
        return text(
            name.map { byte -> UInt8 in
                defer { upper = byte == 0x2D }
                let lower = (0x41...0x5A).contains(byte) ? byte + 32 : byte
                return upper && (0x61...0x7A).contains(lower) ? lower - 32 : lower
            })
    }

    /// A byte of an RFC 9110 token (a field name).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        // Digits, letters, and ! # $ % & ' * + - . ^ _ ` | ~
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            return true
        default: return false
        }
    }
}
