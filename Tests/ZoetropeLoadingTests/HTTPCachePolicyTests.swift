import Foundation
import Testing
import ZoetropeCodecs

@testable import ZoetropeLoading

/// What the disk cache reads from response headers (RFC 9111, as a private cache).
@Suite struct HTTPCachePolicyTests {
    let now = 1_764_000_000.0  // 2025-11-24 16:00:00 UTC

    @Test func httpDatesInAllThreeForms() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("Tue, 01 Dec 2026 10:00:00 GMT") == 1_796_119_200)
        #expect(HTTPDate.parse("0") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
    }

    @Test func maxAgeLessAgeIsTheLifetime() {
        let policy = HTTPCachePolicy(headers: ["Cache-Control": "public, max-age=600", "Age": "100", "ETag": "\"x\""], now: now)
        #expect(policy.lifetime == 500)
        #expect(policy.statesPolicy)
        #expect(!policy.noCache && !policy.noStore)
        #expect(policy.etag == "\"x\"")
        #expect(policy.isStorable)
    }

    @Test func maxAgeWinsOverExpires() {
        let policy = HTTPCachePolicy(headers: ["cache-control": "max-age=60", "expires": "Sun, 06 Nov 1994 08:49:37 GMT"], now: now)
        #expect(policy.lifetime == 60)
    }

    @Test func expiresCountsFromTheResponsesDate() {
        let policy = HTTPCachePolicy(
            headers: [
                "Date": "Sun, 06 Nov 1994 08:49:37 GMT",
                "Expires": "Sun, 06 Nov 1994 09:49:37 GMT",
            ], now: now)
        #expect(policy.lifetime == 3600)
        #expect(HTTPCachePolicy(headers: ["Expires": "0"], now: now).lifetime == 0)
        #expect(!HTTPCachePolicy(headers: ["Expires": "0"], now: now).isStorable)
    }

    @Test func lastModifiedAloneGivesATenthOfItsAgeAtMostADay() {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let tenHoursBefore = "Sat, 05 Nov 1994 22:49:37 GMT"
        let policy = HTTPCachePolicy(headers: ["Date": date, "Last-Modified": tenHoursBefore], now: now)
        #expect(policy.lifetime == 3600)
        #expect(!policy.statesPolicy)
        let old = HTTPCachePolicy(headers: ["Date": date, "Last-Modified": "Sun, 06 Nov 1984 08:49:37 GMT"], now: now)
        #expect(old.lifetime == 86_400)
    }

    @Test func noStoreNoCachePragmaAndVaryStar() {
        #expect(!HTTPCachePolicy(headers: ["Cache-Control": "no-store", "ETag": "\"x\""], now: now).isStorable)
        let noCache = HTTPCachePolicy(headers: ["Cache-Control": "no-cache, max-age=600", "ETag": "\"x\""], now: now)
        #expect(noCache.noCache && noCache.isStorable)
        #expect(!HTTPCachePolicy(headers: ["Cache-Control": "no-cache"], now: now).isStorable)  // nothing to revalidate with
        #expect(HTTPCachePolicy(headers: ["Pragma": "no-cache"], now: now).noCache)
        #expect(!HTTPCachePolicy(headers: ["Pragma": "no-cache", "Cache-Control": "max-age=5"], now: now).noCache)
        #expect(HTTPCachePolicy(headers: ["Vary": "*", "Cache-Control": "max-age=600"], now: now).noStore)
        #expect(!HTTPCachePolicy(headers: [:], now: now).isStorable)
    }

    /// A 304's headers replace what they state; without Cache-Control or Expires the entry
    /// keeps its lifetime, counted from the revalidation.
    @Test func aRevalidatedEntryTakesThe304sHeaders() {
        let entry = DiskCacheEntry(
            url: "u", body: Data([1, 2, 3]),
            policy: HTTPCachePolicy(headers: ["Cache-Control": "max-age=60", "ETag": "\"a\""], now: now), now: now)
        #expect(entry.isFresh(at: now + 59) && !entry.isFresh(at: now + 60))
        let kept = entry.revalidated(with: HTTPCachePolicy(headers: [:], now: now + 100), now: now + 100)
        #expect(kept.lifetime == 60 && kept.etag == "\"a\"" && kept.isFresh(at: now + 159))
        let renewed = entry.revalidated(
            with: HTTPCachePolicy(headers: ["Cache-Control": "no-cache", "ETag": "\"b\""], now: now + 100),
            now: now + 100)
        #expect(renewed.noCache && renewed.etag == "\"b\"" && !renewed.isFresh(at: now + 100))
    }

    /// An entry survives its own encoding: its file (header, then body) parsed back gives
    /// the same fields and the body starting at index 0.
    @Test func anEntryReadsBackFromItsBytes() throws {
        let policy = HTTPCachePolicy(
            headers: [
                "Cache-Control": "max-age=60", "ETag": "\"tab\there\"",
                "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
            ], now: now)
        let entry = DiskCacheEntry(url: "http://h/a.gif", body: Data("GIF89a....".utf8), policy: policy, now: now)
        let file = try #require(entry.file())
        let read = try #require(DiskCacheEntry(file: file, url: "http://h/a.gif"))
        #expect(read.body == entry.body && read.body.startIndex == 0)
        #expect(read.etag == "\"tab\there\"" && read.lastModified == entry.lastModified)
        #expect(read.storedAt == now && read.lifetime == 60 && !read.noCache)
        #expect(DiskCacheEntry(file: file, url: "http://h/b.gif") == nil)  // another URL's entry
        #expect(DiskCacheEntry(file: file.dropLast(), url: "http://h/a.gif") == nil)  // cut
        #expect(DiskCacheEntry(file: Data(file) + Data([0]), url: "http://h/a.gif") == nil)  // grown
    }
}
