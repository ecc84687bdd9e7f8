/// Where players decode frames: off the clock's thread, on a bounded set of workers.
///
/// A player has at most one job queued or running at a time, so a first-in first-out
/// executor is already fair between players.
public protocol DecodeExecutor: AnyObject, Sendable {
    /// Runs `job` later, on some worker. Must not run it synchronously inside `submit`.
    func submit(_ job: DecodeJob)
}
