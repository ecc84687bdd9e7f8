import Zoetrope

/// The bytes all of a loader's downloads in flight may hold together: each piece of a body
/// is reserved before it is kept, and a download gives back what it reserved when it ends.
final class ResponseBudget: Sendable {
    /// The most bytes held at once.
    let limit: Int
    private let held = Locked(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Reserves `bytes`; false (nothing reserved) when that would pass the limit.
    func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            let (total, overflow) = held.addingReportingOverflow(bytes)
            guard !overflow, total <= limit else { return false }
            held = total
            return true
        }
    }

    /// Gives back `bytes` reserved earlier.
    func release(_ bytes: Int) {
        held.withLock { $0 = max(0, $0 - bytes) }
    }

    /// The bytes reserved now.
    var inUse: Int { held.withLock { $0 } }
}
