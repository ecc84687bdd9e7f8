import Foundation

/// What a response's headers say about keeping and reusing it, read as a private cache
/// reads them (RFC 9111): `Cache-Control` (`max-age`, `no-store`, `no-cache`), `Expires`
/// against `Date`, `Age`, `Pragma: no-cache`, `Vary: *`, and the validators `ETag` and
/// `Last-Modified`. Without an explicit lifetime, a response with `Last-Modified` is fresh
/// for a tenth of its age at the time it was sent, at most a day (the heuristic §4.2.2
/// allows and browsers use). Every header may hold any bytes: what does not parse is read
/// as RFC 9111 says (an invalid `max-age` or `Expires` is stale), never a trap.
struct HTTPCachePolicy: Hashable, Sendable {
    /// The response must not be written to the disk cache.
    var noStore = false
    /// The response may be kept but must be revalidated before every use.
    var noCache = false
    /// How long the response stays fresh from the moment it was received, `Age` taken off;
    /// nil when the headers set no lifetime (explicit or heuristic).
    var lifetime: Double?
    /// Whether the headers state a policy (`Cache-Control` or `Expires`): a 304 that does
    /// replaces the stored lifetime and `no-cache`, one that does not keeps them.
    var statesPolicy = false
    /// The `ETag` to send back as `If-None-Match`.
    var etag: String?
    /// The `Last-Modified` to send back as `If-Modified-Since`.
    var lastModified: String?

    /// The policy of a response whose headers are `headers` (any case), received at `now`
    /// (seconds since 1970).
    init(headers: [String: String], now: Double) {
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        etag = lowered["etag"]
        lastModified = lowered["last-modified"]
        if lowered["vary"]?.trimmingCharacters(in: .whitespaces) == "*" { noStore = true }

        var maxAge: Double?
        if let control = lowered["cache-control"] {
            for directive in control.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                let value =
                    parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
                switch name {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                // An invalid max-age makes the response stale (RFC 9111 §4.2.1).
                case "max-age": maxAge = Double(value.flatMap(HTTPDeltaSeconds.parse) ?? 0)
                default: break
                }
            }
        } else if lowered["pragma"]?.lowercased().contains("no-cache") == true {
            noCache = true
        }

        let date = lowered["date"].flatMap(HTTPDate.parse) ?? now
        let age = Double(lowered["age"].flatMap(HTTPDeltaSeconds.parse) ?? 0)
        statesPolicy = lowered["cache-control"] != nil || lowered["expires"] != nil
        if let maxAge {
            lifetime = maxAge - age
        } else if let expires = lowered["expires"] {
            // An Expires that is not a date ("0", "-1") means already expired.
            lifetime = HTTPDate.parse(expires).map { $0 - date - age } ?? 0
        } else if let modified = lastModified.flatMap(HTTPDate.parse), modified < date {
            lifetime = min((date - modified) / 10, 86_400) - age
        }
    }

    /// Whether an entry made from the response can serve anything later: not `no-store`,
    /// and either fresh for a while or revalidatable.
    var isStorable: Bool {
        guard !noStore else { return false }
        return (lifetime ?? 0) > 0 && !noCache || etag != nil || lastModified != nil
    }
}
