#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The worker threads the bulk runs of players (`BulkTuning.sharingWorkers`) may have at once across
/// the process: one per core the process may use. A grid of keep-all players then shares the
/// cores instead of each starting its own thread; a run that gets no worker decodes one frame
/// after another.
enum BulkWorkerAllowance {
    private static let live = Locked(0)

    /// The most workers alive at once.
    static var limit: Int { ProcessorBudget.availableCores }

    /// Grants up to `wanted` workers; the caller releases each when its thread ends.
    static func reserve(_ wanted: Int) -> Int {
        live.withLock { n in
            let granted = max(0, min(wanted, limit - n))
            n += granted
            return granted
        }
    }

    /// A worker's thread ended.
    static func release(_ count: Int = 1) {
        live.withLock { $0 -= count }
    }

    /// Workers alive now, for tests.
    static var liveWorkers: Int { live.withLock { $0 } }
}
