import Foundation

/// One response in the disk cache: its metadata (`DiskCacheMetadata`, the file's header)
/// and its body (the rest of the file).
struct DiskCacheEntry: Sendable {
    var metadata: DiskCacheMetadata
    /// The response body.
    var body: Data

    var url: String { metadata.url }
    var etag: String? { metadata.etag }
    var lastModified: String? { metadata.lastModified }
    var storedAt: Double { metadata.storedAt }
    var lifetime: Double { metadata.lifetime }
    var noCache: Bool { metadata.noCache }

    /// Whether the entry may be used without asking the server at `now`.
    func isFresh(at now: Double) -> Bool {
        !metadata.noCache && now < metadata.storedAt + metadata.lifetime
    }

    /// Whether the server can be asked "has it changed?".
    var hasValidators: Bool { etag != nil || lastModified != nil }

    /// An entry for a response received at `now` with `policy`.
    init(url: String, body: Data, policy: HTTPCachePolicy, now: Double) {
        self.body = body
        metadata = DiskCacheMetadata(
            url: url, etag: policy.etag, lastModified: policy.lastModified, storedAt: now,
            lifetime: policy.lifetime ?? 0, noCache: policy.noCache, bodyLength: body.count,
            bodyChecksum: body.withUnsafeBytes { StripeHash64.hash($0) })
    }

    init(metadata: DiskCacheMetadata, body: Data) {
        self.metadata = metadata
        self.body = body
    }

    /// The entry after a 304 at `now`: the headers of the 304 replace what they state.
    func revalidated(with policy: HTTPCachePolicy, now: Double) -> DiskCacheEntry {
        var entry = self
        entry.metadata.storedAt = now
        if policy.statesPolicy {
            entry.metadata.lifetime = policy.lifetime ?? 0
            entry.metadata.noCache = policy.noCache
        }
        if let etag = policy.etag { entry.metadata.etag = etag }
        if let modified = policy.lastModified { entry.metadata.lastModified = modified }
        return entry
    }

    /// The bytes of the entry's file: the header, then the body. nil when the metadata
    /// does not fit the header.
    func file() -> Data? {
        guard let header = metadata.encoded() else { return nil }
        return Data(header) + body
    }

    /// The entry in a whole file's bytes, or nil when they are not one (a header that
    /// does not parse, a length that does not match, a body whose checksum differs, or,
    /// given `expectedURL`, another URL's entry).
    init?(file: Data, url expectedURL: String?) {
        let metadata = file.withUnsafeBytes { DiskCacheMetadata(header: $0) }
        guard let metadata, expectedURL == nil || metadata.url == expectedURL,
            file.count - DiskCacheMetadata.size == metadata.bodyLength
        else { return nil }
        let body = file.dropFirst(DiskCacheMetadata.size)
        guard body.withUnsafeBytes({ StripeHash64.hash($0) }) == metadata.bodyChecksum else { return nil }
        self.init(metadata: metadata, body: Data(body))
    }
}
