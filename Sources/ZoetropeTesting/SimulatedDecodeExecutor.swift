import Zoetrope

/// An executor that runs decodes in simulated time, for deterministic tests and traces.
///
/// Each job takes `cost(job)` of simulated time on one of `workerCount` simulated workers,
/// first in, first out. `advance(toNanoseconds:)` runs, on the caller's thread and in
/// finish-time order, every job that finishes by then; jobs those decodes submit start
/// at the finish time. Attached to a `ManualClock`, it advances before every tick, so a
/// frame whose decode finishes by a tick is ready at that tick.
public final class SimulatedDecodeExecutor: DecodeExecutor {
    private struct Running {
        var job: DecodeJob
        var finish: Int64
    }
    private struct Worker {
        var freeAt: Int64 = 0
        var running: Running?
    }
    private struct State {
        var now: Int64 = 0
        var queue: [(job: DecodeJob, submitted: Int64)] = []
        var workers: [Worker]
        var jobsRun = 0
        var decodesPerFrame: [Int: Int] = [:]
    }
    private let state: Locked<State>
    private let cost: @Sendable (DecodeJob) -> Duration

    /// `workerCount` simulated workers; `cost` gives each job's simulated decode time.
    public init(workerCount: Int = 1, cost: @escaping @Sendable (DecodeJob) -> Duration) {
        state = Locked(State(workers: Array(repeating: Worker(), count: max(1, workerCount))))
        self.cost = cost
    }

    /// Every decode takes `cost`.
    public convenience init(workerCount: Int = 1, constantCost: Duration = .zero) {
        self.init(workerCount: workerCount) { _ in constantCost }
    }

    public func submit(_ job: DecodeJob) {
        state.withLock { s in s.queue.append((job, s.now)) }
    }

    /// Advances before every tick of `clock`. Keep the subscription while simulating.
    public func attach(to clock: ManualClock) -> ClockSubscription {
        clock.addPreTickAction { [weak self] tick in self?.advance(toNanoseconds: tick.targetNanoseconds) }
    }

    /// Runs every job that finishes at or before `t`, then sets the simulated time to `t`.
    public func advance(toNanoseconds t: Int64) {
        while true {
            let next = state.withLock { s -> DecodeJob? in
                for w in s.workers.indices where s.workers[w].running == nil && !s.queue.isEmpty {
                    let (job, submitted) = s.queue.removeFirst()
                    let start = max(submitted, s.workers[w].freeAt)
                    let ns = max(0, cost(job).wholeNanoseconds)
                    s.workers[w].running = Running(job: job, finish: start + ns)
                }
                var best: Int?
                for w in s.workers.indices {
                    guard let r = s.workers[w].running, r.finish <= t else { continue }
                    if best == nil || r.finish < s.workers[best!].running!.finish { best = w }
                }
                guard let w = best, let r = s.workers[w].running else {
                    s.now = max(s.now, t)
                    return nil
                }
                s.now = max(s.now, r.finish)
                s.workers[w].running = nil
                s.workers[w].freeAt = r.finish
                s.jobsRun += 1
                s.decodesPerFrame[r.job.frameIndex, default: 0] += 1
                return r.job
            }
            guard let job = next else { return }
            job.run()
        }
    }

    /// The simulated time.
    public var nowNanoseconds: Int64 { state.withLock { $0.now } }
    /// Jobs run so far.
    public var jobsRun: Int { state.withLock { $0.jobsRun } }
    /// How many times each frame index was decoded.
    public var decodesPerFrame: [Int: Int] { state.withLock { $0.decodesPerFrame } }
    /// Jobs waiting or running.
    public var pendingJobs: Int { state.withLock { s in s.queue.count + s.workers.filter { $0.running != nil }.count } }
}
