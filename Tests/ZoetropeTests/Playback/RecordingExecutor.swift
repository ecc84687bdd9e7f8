import ZoetropeTesting
@testable import Zoetrope

/// Wraps an executor and records which player submitted each job, in order.
final class RecordingExecutor: DecodeExecutor {
    let inner: SimulatedDecodeExecutor
    private let owners = Locked<[Int]>([])

    init(_ inner: SimulatedDecodeExecutor) { self.inner = inner }

    func submit(_ job: DecodeJob) {
        owners.withLock { $0.append(job.ownerID) }
        inner.submit(job)
    }

    var submittedBy: [Int] { owners.withLock { $0 } }
}
