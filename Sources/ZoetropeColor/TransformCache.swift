import CLCMS2
import Zoetrope

/// The transforms built so far, by `TransformKey` (an ICC profile by its SHA-256): at most
/// `capacity` entries and `byteLimit` bytes (each transform's tables plus its key), the
/// least recently used dropped first. A declaration that needs no transform (identity) is
/// kept as a small entry; one that cannot be converted is not kept (it is read again the
/// next time, which costs what failing costs: at most one profile parse).
final class TransformCache: Sendable {
    static let shared = TransformCache(capacity: 64, byteLimit: 8 << 20)

    private struct Entry {
        let transform: (any ColorTransform)?
        let bytes: Int
    }

    private struct Store {
        var entries: [TransformKey: Entry] = [:]
        /// Keys from least to most recently used.
        var order: [TransformKey] = []
        var bytes = 0

        /// Marks `key` most recently used.
        mutating func touch(_ key: TransformKey) {
            guard let i = order.firstIndex(of: key), i != order.count - 1 else { return }
            order.append(order.remove(at: i))
        }
    }

    let capacity: Int
    let byteLimit: Int
    private let store = Locked(Store())

    init(capacity: Int, byteLimit: Int) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// Entries held now (tests).
    var count: Int { store.withLock { $0.entries.count } }
    /// Bytes the entries hold now (tests).
    var byteCount: Int { store.withLock { $0.bytes } }

    func transform(for source: ColorSource) throws(ColorConversionError) -> (any ColorTransform)? {
        // A profile too big to open fails before it is hashed.
        if case .profile(let bytes) = source, bytes.count > LCMSProfile.maxProfileBytes {
            throw LCMSProfile.invalidProfile(byteCount: bytes.count)
        }
        let key = TransformKey(source)
        if let hit = store.withLock({ s -> Entry? in
            guard let entry = s.entries[key] else { return nil }
            s.touch(key)
            return entry
        }) {
            return hit.transform
        }
        // Built outside the lock: two threads may build the same one; the first stored wins.
        let built = try TransformCache.build(source)
        let bytes = (built?.retainedByteCount ?? 0) + TransformKey.entryOverhead
        return store.withLock { s -> (any ColorTransform)? in
            if let existing = s.entries[key] {
                s.touch(key)
                return existing.transform
            }
            guard bytes <= byteLimit else { return built }
            while !s.order.isEmpty, s.order.count >= capacity || s.bytes + bytes > byteLimit {
                let oldest = s.order.removeFirst()
                s.bytes -= s.entries.removeValue(forKey: oldest)?.bytes ?? 0
            }
            s.entries[key] = Entry(transform: built, bytes: bytes)
            s.order.append(key)
            s.bytes += bytes
            return built
        }
    }

    /// The transform for `source`: nil when it maps every probed colour to itself; the
    /// matrix-shaper fast path when the profile is one and it agrees with lcms2; lcms2's
    /// transform otherwise.
    private static func build(_ source: ColorSource) throws(ColorConversionError) -> (any ColorTransform)? {
        let profile = try LCMSProfile.make(source).get()
        defer { cmsCloseProfile(profile) }
        var profileBytes = 0
        if case .profile(let bytes) = source { profileBytes = bytes.count }
        guard let lcms = LCMSTransform(from: profile, profileByteCount: profileBytes) else {
            throw ColorConversionError(reason: "lcms2 cannot convert this colour space to sRGB: values left as stored")
        }
        if lcms.isIdentity { return nil }
        if let shaper = MatrixShaper.read(profile), let fast = MatrixShaperTransform(shaper), fast.agrees(with: lcms, profile: profile) {
            return fast
        }
        return lcms
    }
}
