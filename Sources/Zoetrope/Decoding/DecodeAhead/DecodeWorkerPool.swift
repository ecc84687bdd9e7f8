/// A fixed, bounded set of decode threads shared by many players.
///
/// Jobs run first in, first out; since every player keeps at most one job in the queue,
/// 64 players share `workerCount` threads round-robin and none starves. Threads start
/// lazily, as jobs arrive, and hold only the job queue, not the pool: when the pool is
/// freed they finish the jobs already queued and end. (`shared` is never freed, so its
/// threads live as long as the process.)
package final class DecodeWorkerPool: DecodeExecutor {
    /// The pool players use unless told otherwise: `ProcessorBudget.playbackDecodeThreads`
    /// workers (one per core the process may use, at most 4).
    package static let shared = DecodeWorkerPool(workerCount: ProcessorBudget.playbackDecodeThreads)

    /// The most threads this pool runs.
    package let workerCount: Int
    /// The jobs and the threads' books; the threads keep this alive, never the pool.
    let queue: DecodeJobQueue

    /// A pool of at most `workerCount` threads (at least 1).
    package init(workerCount: Int) {
        self.workerCount = max(1, workerCount)
        queue = DecodeJobQueue(workerCount: self.workerCount)
    }

    deinit { queue.close() }

    package func submit(_ job: DecodeJob) {
        guard queue.push(job) else { return }
        let queue = queue
        NativeThread.detach(name: "zoetrope.decode") { queue.workLoop() }
    }

    /// Threads started so far (never more than `workerCount`).
    package var threadsStarted: Int { queue.threadsStarted }
    /// Jobs finished so far.
    package var jobsCompleted: Int { queue.jobsCompleted }
}
