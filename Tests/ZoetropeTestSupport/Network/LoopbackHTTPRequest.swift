/// One request `LoopbackHTTPServer` received: its method, path and headers.
public struct LoopbackHTTPRequest: Sendable, Hashable {
    /// `GET`, `HEAD`, ...
    public var method: String
    /// The path with its query, as sent (`/a.gif?x=1`).
    public var target: String
    /// Header values by lower-cased name (the last one wins when a name repeats).
    public var headers: [String: String]

    /// The path without its query.
    public var path: String { String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }

    /// The value of header `name`, any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Parses a request head (the bytes before the blank line); nil when it is not HTTP.
    init?(head: String) {
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { return nil }
        let parts = lines.removeFirst().split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/") else { return nil }
        method = String(parts[0])
        target = String(parts[1])
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: " \t").lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
        }
        self.headers = headers
    }
}

extension StringProtocol {
    /// The string without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
