import Testing
import Zoetrope
import ZoetropeColorTestSupport

@testable import ZoetropeColor

@Suite("Transform cache")
struct TransformCacheTests {
    /// Adobe RGB's primaries with gamma 1 + i/100: a distinct matrix-shaper profile per `i`.
    static func profile(_ i: Int) -> ColorSource {
        .profile(LCMSProfiles.rgb(primaries: LCMSProfiles.adobePrimaries, curve: [1 + Double(i) / 100]))
    }

    @Test("100 distinct profiles: the cache never holds more than its entries or its bytes")
    func bounded() throws {
        let one = try #require(try TransformCache(capacity: 4, byteLimit: 1 << 30).transform(for: Self.profile(0)))
        let entryBytes = one.retainedByteCount + TransformKey.entryOverhead
        // Room for 5 entries' bytes but 8 entries: the bytes bind first.
        let cache = TransformCache(capacity: 8, byteLimit: 5 * entryBytes + entryBytes / 2)
        for i in 0..<100 {
            // Every one the fast path, with tables of the same size.
            let transform = try cache.transform(for: Self.profile(i))
            #expect(transform is MatrixShaperTransform)
            #expect(transform?.retainedByteCount == one.retainedByteCount)
            #expect(cache.count <= 8)
            #expect(cache.byteCount <= cache.byteLimit)
        }
        #expect(cache.count == 5)
        // Entries bind first when they are the smaller bound.
        let byCount = TransformCache(capacity: 3, byteLimit: 1 << 30)
        for i in 0..<100 { _ = try byCount.transform(for: Self.profile(i)) }
        #expect(byCount.count == 3)
        #expect(byCount.byteCount == 3 * entryBytes)
    }

    @Test("A profile is keyed by its digest: the same bytes again are a hit, the least recently used goes first")
    func keyedByDigest() throws {
        let cache = TransformCache(capacity: 2, byteLimit: 1 << 30)
        // Made once: lcms2 stamps a profile it saves with the time, so a profile made again a
        // second later has other bytes.
        let one = Self.profile(1)
        let a = try #require(try cache.transform(for: one))
        _ = try cache.transform(for: Self.profile(2))
        // A copy of a's bytes (not the same array) finds a's transform; a is now the newest.
        guard case .profile(let bytes) = one else { return }
        #expect(try cache.transform(for: .profile(Array(bytes))) === a)
        _ = try cache.transform(for: Self.profile(3))
        #expect(try cache.transform(for: one) === a)
        #expect(cache.count == 2)
        #expect(TransformKey(.profile(bytes)) == .profile(sha256: SHA256.hex(bytes), byteCount: bytes.count))
    }

    @Test("A profile that fails is not kept, nor one bigger than the limit hashed")
    func failuresAreNotKept() throws {
        let cache = TransformCache(capacity: 8, byteLimit: 1 << 30)
        _ = try cache.transform(for: Self.profile(5))
        let junk = ColorSource.profile([UInt8](repeating: 0x5a, count: 4096))
        #expect(throws: ColorConversionError.self) { try cache.transform(for: junk) }
        #expect(throws: ColorConversionError.self) { try cache.transform(for: junk) }
        let huge = ColorSource.profile([UInt8](repeating: 0, count: LCMSProfile.maxProfileBytes + 1))
        #expect(throws: ColorConversionError.self) { try cache.transform(for: huge) }
        #expect(cache.count == 1)
    }

    @Test("A transform bigger than the whole byte limit is returned and not kept")
    func oversizedIsNotKept() throws {
        let cache = TransformCache(capacity: 8, byteLimit: 1000)
        #expect(try cache.transform(for: Self.profile(7)) != nil)
        #expect(cache.count == 0)
        #expect(cache.byteCount == 0)
    }
}
