import Foundation

@testable import ZoetropeLoading

/// The loader's header parsers on arbitrary bytes: the input is split at NUL bytes into
/// values for `Date`, `Expires`, `Last-Modified`, `Cache-Control`, `Age`, `Pragma`, `Vary`
/// and `ETag` (in that order), read as UTF-8 with invalid bytes replaced, as
/// FoundationNetworking hands headers over. Each parse must end without a trap, and what
/// it says must be within RFC 9111's bounds.
enum FuzzHTTPHeaders {
    static let names = ["Date", "Expires", "Last-Modified", "Cache-Control", "Age", "Pragma", "Vary", "ETag"]

    static func run(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        let values = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var headers: [String: String] = [:]
        for (name, value) in zip(names, values) { headers[name] = value }
        for value in values {
            if let seconds = HTTPDate.parse(value), !(-62_135_596_800...253_402_300_799).contains(seconds) {
                outcome.problem = "a date outside the years 1-9999: \(seconds)"
            }
            if let delta = HTTPDeltaSeconds.parse(value), !(0...HTTPDeltaSeconds.maximum).contains(delta) {
                outcome.problem = "delta-seconds outside 0...2^31: \(delta)"
            }
        }
        let policy = HTTPCachePolicy(headers: headers, now: 1_764_000_000)
        outcome.opened = true
        if let lifetime = policy.lifetime, lifetime.isNaN {
            outcome.problem = "a lifetime that is not a number"
        }
        _ = policy.isStorable
        return outcome
    }
}
