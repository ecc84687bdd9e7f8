import Foundation

/// A fixed, bounded set of decode threads shared by many players.
///
/// Jobs run first in, first out; since every player keeps at most one job in the queue,
/// 64 players share `workerCount` threads round-robin and none starves. Threads start
/// lazily and live as long as the pool.
public final class DecodeWorkerPool: DecodeExecutor {
    /// The pool players use unless told otherwise: one worker per core, at most 4.
    public static let shared = DecodeWorkerPool(workerCount: min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)))

    /// The most threads this pool runs.
    public let workerCount: Int
    private struct State {
        var queue: [DecodeJob] = []
        var head = 0
        var started = 0
        var running = 0
        var completed = 0
    }
    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)

    /// A pool of at most `workerCount` threads (at least 1).
    public init(workerCount: Int) {
        self.workerCount = max(1, workerCount)
    }

    public func submit(_ job: DecodeJob) {
        let startThread = state.withLock { s -> Bool in
            s.queue.append(job)
            if s.started < workerCount && s.started - s.running < s.queue.count - s.head {
                s.started += 1
                return true
            }
            return false
        }
        if startThread {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "zoetrope.decode"
            thread.start()
        }
        available.signal()
    }

    /// Threads started so far (never more than `workerCount`).
    public var threadsStarted: Int { state.withLock { $0.started } }
    /// Jobs finished so far.
    public var jobsCompleted: Int { state.withLock { $0.completed } }

    private func workLoop() {
        while true {
            available.wait()
            let job = state.withLock { s -> DecodeJob? in
                guard s.head < s.queue.count else { return nil }
                let job = s.queue[s.head]
                s.head += 1
                if s.head > 64 && s.head * 2 > s.queue.count {
                    s.queue.removeFirst(s.head)
                    s.head = 0
                }
                s.running += 1
                return job
            }
            guard let job else { continue }
            job.run()
            state.withLock { s in
                s.running -= 1
                s.completed += 1
            }
        }
    }
}
