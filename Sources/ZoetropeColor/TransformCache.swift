import CLCMS2
import Zoetrope

/// The transforms built so far, by declaration: at most `capacity`, the oldest dropped
/// first. A declaration that needs none (identity) or cannot be converted is cached too.
final class TransformCache: Sendable {
    static let shared = TransformCache(capacity: 64)

    typealias Entry = Result<LCMSTransform?, ColorConversionError>
    private struct Store {
        var entries: [ColorSource: Entry] = [:]
        var order: [ColorSource] = []
    }

    let capacity: Int
    private let store = Locked(Store())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Entries held now (tests).
    var count: Int { store.withLock { $0.entries.count } }

    func transform(for key: ColorSource) throws(ColorConversionError) -> LCMSTransform? {
        if let hit = store.withLock({ $0.entries[key] }) { return try hit.get() }
        // Built outside the lock: two threads may build the same one; the first stored wins.
        let built = TransformCache.build(key)
        let entry = store.withLock { s -> Entry in
            if let existing = s.entries[key] { return existing }
            s.entries[key] = built
            s.order.append(key)
            if s.order.count > capacity { s.entries[s.order.removeFirst()] = nil }
            return built
        }
        return try entry.get()
    }

    private static func build(_ key: ColorSource) -> Entry {
        let profile: cmsHPROFILE
        switch LCMSProfile.make(key) {
        case .success(let p): profile = p
        case .failure(let e): return .failure(e)
        }
        defer { cmsCloseProfile(profile) }
        guard let transform = LCMSTransform(from: profile) else {
            return .failure(ColorConversionError(reason: "lcms2 cannot convert this colour space to sRGB: values left as stored"))
        }
        return .success(transform.isIdentity ? nil : transform)
    }
}
