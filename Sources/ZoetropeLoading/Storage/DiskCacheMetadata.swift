/// What a disk-cache entry says about its body, kept in a fixed-size header at the start of
/// the entry's file so that a 304 rewrites it in place, without the body.
///
/// Header (`size` bytes, little-endian): magic `ZTRPDC2\n` (8), format version (4), header
/// size (4), body length (8), body checksum (8), stored-at and lifetime (IEEE 754 doubles,
/// 8 each), flags (4: bit 0 no-cache, bit 1 an ETag, bit 2 a Last-Modified), the lengths of
/// the URL, ETag and Last-Modified (4 each), those three strings in UTF-8 from byte 64,
/// zeros, and at its last 8 bytes the checksum (`StripeHash64`) of everything before. The
/// body follows the header. Every value is checked before use: a header that does not
/// parse is not an entry.
struct DiskCacheMetadata: Sendable, Equatable {
    /// The URL the response answered (the request's, before redirects).
    var url: String
    var etag: String?
    var lastModified: String?
    /// When the response was received or last revalidated, seconds since 1970.
    var storedAt: Double
    /// Seconds fresh after `storedAt` (zero or less: stale at once).
    var lifetime: Double
    /// Revalidate before every use.
    var noCache: Bool
    var bodyLength: Int
    /// `StripeHash64` of the body, checked before the body is served.
    var bodyChecksum: UInt64

    static let size = 4096
    static let magic: [UInt8] = Array("ZTRPDC2\n".utf8)
    static let version: UInt32 = 2
    private static let stringsOffset = 64
    private static let checksumOffset = size - 8

    /// The header's bytes; nil when the strings do not fit (such an entry is not stored).
    func encoded() -> [UInt8]? {
        let strings = [Array(url.utf8), etag.map { Array($0.utf8) } ?? [], lastModified.map { Array($0.utf8) } ?? []]
        let total = strings.reduce(0) { $0 + $1.count }
        guard total <= Self.checksumOffset - Self.stringsOffset, bodyLength >= 0 else { return nil }
        var bytes = Self.magic
        bytes.append(littleEndian: Self.version)
        bytes.append(littleEndian: UInt32(Self.size))
        bytes.append(littleEndian: UInt64(bodyLength))
        bytes.append(littleEndian: bodyChecksum)
        bytes.append(littleEndian: storedAt.bitPattern)
        bytes.append(littleEndian: lifetime.bitPattern)
        let flags: UInt32 = (noCache ? 1 : 0) | (etag != nil ? 2 : 0) | (lastModified != nil ? 4 : 0)
        bytes.append(littleEndian: flags)
        for string in strings { bytes.append(littleEndian: UInt32(string.count)) }
        for string in strings { bytes += string }
        bytes += [UInt8](repeating: 0, count: Self.checksumOffset - bytes.count)
        let checksum = bytes.withUnsafeBytes { StripeHash64.hash($0) }
        bytes.append(littleEndian: checksum)
        return bytes
    }

    /// The metadata in `header` (at least `size` bytes; only the first `size` are read), or
    /// nil when they are not a whole, unchanged header of this format.
    init?(header raw: UnsafeRawBufferPointer) {
        guard raw.count >= Self.size else { return nil }
        let header = UnsafeRawBufferPointer(rebasing: raw[0..<Self.size])
        func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: header.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: header.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        guard header[0..<8].elementsEqual(Self.magic), u32(8) == Self.version, u32(12) == UInt32(Self.size),
            u64(Self.checksumOffset) == StripeHash64.hash(UnsafeRawBufferPointer(rebasing: header[0..<Self.checksumOffset]))
        else { return nil }
        let length = u64(16)
        guard length <= UInt64(Int.max - Self.size) else { return nil }
        let flags = u32(48)
        guard flags & ~7 == 0 else { return nil }
        // Three lengths, each at most the room for strings: their sum cannot overflow.
        let room = Self.checksumOffset - Self.stringsOffset
        let lengths = [u32(52), u32(56), u32(60)].map { Int(min($0, UInt32(room + 1))) }
        guard lengths.allSatisfy({ $0 <= room }), lengths[0] + lengths[1] + lengths[2] <= room,
            flags & 2 != 0 || lengths[1] == 0, flags & 4 != 0 || lengths[2] == 0
        else { return nil }
        var strings: [String] = []
        var offset = Self.stringsOffset
        for length in lengths {
            guard let string = String(validating: header[offset..<(offset + length)], as: UTF8.self) else { return nil }
            strings.append(string)
            offset += length
        }
        let storedAt = Double(bitPattern: u64(32)), lifetime = Double(bitPattern: u64(40))
        guard !strings[0].isEmpty, storedAt.isFinite, !lifetime.isNaN else { return nil }
        url = strings[0]
        etag = flags & 2 != 0 ? strings[1] : nil
        lastModified = flags & 4 != 0 ? strings[2] : nil
        self.storedAt = storedAt
        self.lifetime = lifetime
        noCache = flags & 1 != 0
        bodyLength = Int(length)
        bodyChecksum = u64(24)
    }

    init(
        url: String, etag: String?, lastModified: String?, storedAt: Double, lifetime: Double, noCache: Bool,
        bodyLength: Int, bodyChecksum: UInt64
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.storedAt = storedAt
        self.lifetime = lifetime
        self.noCache = noCache
        self.bodyLength = bodyLength
        self.bodyChecksum = bodyChecksum
    }
}

extension [UInt8] {
    fileprivate mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
