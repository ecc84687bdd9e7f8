import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The queue behind a `DecodeWorkerPool`: jobs first in, first out, and the count of the
/// threads serving them. Closing it (the pool was freed) lets each thread end once no job
/// is left.
final class DecodeJobQueue: Sendable {
    private struct State {
        var jobs: [DecodeJob] = []
        var head = 0
        var started = 0
        var live = 0
        var running = 0
        var completed = 0
        var closed = false
    }
    private let state = Locked(State())
    /// One signal per job pushed, and one per thread when the queue closes.
    private let available = DispatchSemaphore(value: 0)
    private let workerCount: Int

    init(workerCount: Int) { self.workerCount = workerCount }

    /// Queues `job`; returns true when the caller must start a thread to serve the queue.
    func push(_ job: DecodeJob) -> Bool {
        let startThread = state.withLock { s -> Bool in
            s.jobs.append(job)
            if s.started < workerCount && s.started - s.running < s.jobs.count - s.head {
                s.started += 1
                s.live += 1
                return true
            }
            return false
        }
        available.signal()
        return startThread
    }

    /// No more jobs will come: every thread ends once the queue is empty.
    func close() {
        let threads = state.withLock { s -> Int in
            s.closed = true
            return s.live
        }
        for _ in 0..<threads { available.signal() }
    }

    /// A worker thread's body: runs jobs until the queue is closed and empty.
    func workLoop() {
        while true {
            available.wait()
            let next = state.withLock { s -> DecodeJob?? in
                guard s.head < s.jobs.count else {
                    guard s.closed else { return .some(nil) }
                    s.live -= 1
                    return .none
                }
                let job = s.jobs[s.head]
                s.head += 1
                if s.head > 64 && s.head * 2 > s.jobs.count {
                    s.jobs.removeFirst(s.head)
                    s.head = 0
                }
                s.running += 1
                return .some(job)
            }
            guard let slot = next else { return }
            guard let job = slot else { continue }
            job.run()
            state.withLock { s in
                s.running -= 1
                s.completed += 1
            }
        }
    }

    /// Threads started so far.
    var threadsStarted: Int { state.withLock { $0.started } }
    /// Threads that have not ended.
    var liveThreads: Int { state.withLock { $0.live } }
    /// Jobs finished so far.
    var jobsCompleted: Int { state.withLock { $0.completed } }
}
