import Foundation

@testable import ZoetropeLoading

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loader's header parsers on arbitrary bytes: the input is split at NUL bytes into
/// values for `Date`, `Expires`, `Last-Modified`, `Cache-Control`, `Age`, `Pragma`, `Vary`
/// and `ETag` (in that order), read as UTF-8 with invalid bytes replaced, as
/// FoundationNetworking hands headers over. Each parse must end without a trap, and what
/// it says must be within RFC 9111's bounds. The same bytes, split into lines, are also a
/// response head for `ResponseHead` and then an `HTTPURLResponse`, as the transport reads one.
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
        head(data, &outcome)
        return outcome
    }

    /// The input as the lines of a response head.
    static func head(_ data: Data, _ outcome: inout FuzzOutcome) {
        var head = ResponseHead()
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? data.endIndex
            let step = head.take(data[start..<end])
            start = end
            if case .invalid = step { return }
            if step == .complete { break }
        }
        guard head.isComplete else { return }
        if !(200...999).contains(head.status) { outcome.problem = "a final status outside 200...999: \(head.status)" }
        if head.fields.count > ResponseHead.fieldLimit { outcome.problem = "more fields than the limit" }
        let url = URL(string: "http://127.0.0.1/a.gif")!
        let response = HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version, headerFields: head.fields)
        _ = response?.expectedContentLength
        _ = HTTPCachePolicy(headers: head.fields, now: 1_764_000_000).lifetime
    }
}
