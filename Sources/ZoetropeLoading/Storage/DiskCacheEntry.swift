import Foundation

/// One response in the disk cache: the body, then what is needed to reuse it, then a
/// fixed footer. The body comes first so that a memory-mapped entry hands the body to the
/// decoder as a slice starting at offset 0, without a copy.
///
/// Footer (32 bytes, little-endian): body length (8), metadata length (4), format version
/// (4), FNV-1a checksum of the metadata and the first 16 footer bytes (8), magic `ZTRPDC\r\n`
/// (8). A file whose footer, lengths, checksum or URL do not match is not an entry.
struct DiskCacheEntry: Sendable {
    /// The URL the response answered (the request's, before redirects).
    var url: String
    /// The response body.
    var body: Data
    /// The validators and lifetime.
    var etag: String?
    var lastModified: String?
    /// When the response was received or last revalidated, seconds since 1970.
    var storedAt: Double
    /// Seconds fresh after `storedAt` (zero or less: stale at once).
    var lifetime: Double
    /// Revalidate before every use.
    var noCache: Bool

    static let magic: [UInt8] = Array("ZTRPDC\r\n".utf8)
    static let version: UInt32 = 1
    static let footerSize = 32

    /// Whether the entry may be used without asking the server at `now`.
    func isFresh(at now: Double) -> Bool { !noCache && now < storedAt + lifetime }

    /// Whether the server can be asked "has it changed?".
    var hasValidators: Bool { etag != nil || lastModified != nil }

    /// An entry for a response received at `now` with `policy`.
    init(url: String, body: Data, policy: HTTPCachePolicy, now: Double) {
        self.url = url
        self.body = body
        etag = policy.etag
        lastModified = policy.lastModified
        storedAt = now
        lifetime = policy.lifetime ?? 0
        noCache = policy.noCache
    }

    /// The entry after a 304 at `now`: the headers of the 304 replace what they state.
    func revalidated(with policy: HTTPCachePolicy, now: Double) -> DiskCacheEntry {
        var entry = self
        entry.storedAt = now
        if policy.statesPolicy {
            entry.lifetime = policy.lifetime ?? 0
            entry.noCache = policy.noCache
        }
        if let etag = policy.etag { entry.etag = etag }
        if let modified = policy.lastModified { entry.lastModified = modified }
        return entry
    }

    /// Everything after the body: the metadata and the footer.
    func trailer() -> [UInt8] {
        var lines = "url\t\(url)\nstored\t\(storedAt)\nlifetime\t\(lifetime)\n"
        if noCache { lines += "no-cache\t1\n" }
        if let etag { lines += "etag\t\(etag)\n" }
        if let lastModified { lines += "last-modified\t\(lastModified)\n" }
        let meta = Array(lines.utf8)
        var footer: [UInt8] = []
        footer.append(littleEndian: UInt64(body.count))
        footer.append(littleEndian: UInt32(meta.count))
        footer.append(littleEndian: Self.version)
        var hash = FNV1a()
        hash.add(meta)
        hash.add(footer)
        footer.append(littleEndian: hash.value)
        footer += Self.magic
        return meta + footer
    }

    /// The footer's lengths when `footer` (the file's last 32 bytes) is one of ours and
    /// fits a file of `fileSize` bytes.
    static func lengths(footer: UnsafeRawBufferPointer, fileSize: Int) -> (body: Int, meta: Int)? {
        guard footer.count == footerSize, Array(footer[24..<32]) == magic,
            footer.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian == version
        else { return nil }
        let body = footer.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian
        let meta = footer.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard body <= UInt64(Int.max / 2), UInt64(fileSize) == body + UInt64(meta) + UInt64(footerSize) else { return nil }
        return (Int(body), Int(meta))
    }

    /// Reads an entry from a whole file's bytes (memory-mapped: the body stays a slice of
    /// them). nil when the file is not a whole entry for `url`.
    init?(file: Data, url expectedURL: String?) {
        guard file.count >= Self.footerSize else { return nil }
        let parsed: (Int, [UInt8])? = file.withUnsafeBytes { raw in
            let footer = UnsafeRawBufferPointer(rebasing: raw[(raw.count - Self.footerSize)...])
            guard let (body, meta) = Self.lengths(footer: footer, fileSize: raw.count) else { return nil }
            let metaBytes = Array(raw[body..<(body + meta)])
            var hash = FNV1a()
            hash.add(metaBytes)
            hash.add(UnsafeRawBufferPointer(rebasing: footer[0..<16]))
            guard hash.value == footer.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian else { return nil }
            return (body, metaBytes)
        }
        guard let (bodyLength, metaBytes) = parsed, let meta = Self.fields(metaBytes),
            let url = meta["url"], expectedURL == nil || url == expectedURL,
            let stored = meta["stored"].flatMap(Double.init), let lifetime = meta["lifetime"].flatMap(Double.init)
        else { return nil }
        self.url = url
        body = file.prefix(bodyLength)
        etag = meta["etag"]
        lastModified = meta["last-modified"]
        storedAt = stored
        self.lifetime = lifetime
        noCache = meta["no-cache"] == "1"
    }

    private static func fields(_ bytes: [UInt8]) -> [String: String]? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            fields[String(line[..<tab])] = String(line[line.index(after: tab)...])
        }
        return fields
    }
}

extension [UInt8] {
    fileprivate mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
