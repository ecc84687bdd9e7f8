#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine under `BulkFrameDecoder` for one `ParallelFrameDecoding` source: worker
/// threads claim frames in order and decode their payloads, at most `window` frames ahead
/// of the consumer; the consumer takes them in order, helps decode while it would otherwise
/// wait, and delivers each frame through the source.
///
/// Payload storage is recycled: a delivered frame's storage goes back to a pool the next
/// claim takes from, so a run allocates about `window` + 1 payloads, however many frames.
///
/// When cores are scarce (the machine is busy), the threads get little more than one core
/// between them, and the payload path's hand-offs and extra copy would make the run slower
/// than decoding one frame after another. So the run measures the CPU its threads get per
/// second of wall time, and once that stays under `minimumParallelism` it stops the workers
/// and delivers the remaining frames through `decodeFrame(at:into:)`.
final class PayloadPipeline<Source: ParallelFrameDecoding>: @unchecked Sendable {
    // @unchecked: every stored `var` below is read and written only with `condition` locked;
    // `source` is Sendable and the lets never change.
    private let source: Source
    private let end: Int
    private let window: Int
    private let condition = ThreadCondition()
    /// The next frame no thread has claimed yet.
    private var nextToClaim: Int
    /// The next frame the consumer delivers.
    private var nextToDeliver: Int
    /// Decoded frames not yet delivered: a payload, or nil when the frame must take the
    /// source's own path.
    private var ready: [Int: Source.FramePayload?] = [:]
    /// Storage of delivered payloads, for the next claims.
    private var pool: [[UInt8]] = []
    /// No frame is claimed any more (cancelled, failed, or gone serial).
    private var stopped = false
    /// The run ended: `next` returns nil.
    private var cancelled = false
    /// The workers were stopped for want of cores: the rest goes one frame after another.
    private var serial = false
    private var liveWorkers = 0
    /// The consumer's decoding context, made the first time it helps.
    private var consumerContext: Source.PayloadContext?
    /// CPU seconds the run's threads spent decoding and delivering, and when it started.
    private var cpuSeconds = 0.0
    private var started: Double?
    private var delivered = 0

    /// CPU per wall-clock second under which the workers are stopped.
    private let minimumParallelism: Double
    /// Frames delivered between two checks of the parallelism (the first after as many).
    static var checkInterval: Int { 12 }

    /// Whether the workers were reserved from `BulkWorkerAllowance`.
    private let sharesWorkers: Bool

    init(source: Source, frames: Range<Int>, window: Int, minimumParallelism: Double, sharesWorkers: Bool) {
        self.source = source
        self.sharesWorkers = sharesWorkers
        self.minimumParallelism = minimumParallelism
        self.end = frames.upperBound
        self.window = max(1, window)
        nextToClaim = frames.lowerBound
        nextToDeliver = frames.lowerBound
    }

    /// Starts `count` worker threads (when `sharesWorkers`, reserved from
    /// `BulkWorkerAllowance`; each gives its reservation back as it ends).
    func start(workers count: Int) {
        condition.lock()
        liveWorkers += count
        condition.unlock()
        for _ in 0..<count {
            NativeThread.detach(name: "zoetrope.bulk") { [self] in workLoop() }
        }
    }

    /// Claims the next frame within the window; nil when the run is stopped or every frame
    /// is claimed. Called with `condition` locked.
    private func claimLocked() -> Int? {
        guard !stopped, nextToClaim < end, nextToClaim < nextToDeliver + window else { return nil }
        defer { nextToClaim += 1 }
        return nextToClaim
    }

    /// Decodes a claimed frame outside the lock, into recycled storage, and files it.
    /// Called with `condition` locked; returns with it locked.
    private func decodeClaimed(_ index: Int, context: inout Source.PayloadContext) {
        // Taken from the pool into this variable only, so the decoder can reshape the
        // storage in place (a second reference would make it copy on write).
        var spare = pool.popLast() ?? []
        condition.unlock()
        let cpu0 = PayloadPipeline.threadCPUSeconds()
        let payload = source.decodePayload(index, context: &context, storage: &spare)
        let spent = PayloadPipeline.threadCPUSeconds() - cpu0
        condition.lock()
        cpuSeconds += spent
        if !stopped { ready[index] = .some(payload) }
        if !spare.isEmpty, !stopped { pool.append(spare) }
        condition.broadcast()
    }

    private func workLoop() {
        var context = source.makePayloadContext()
        condition.lock()
        while !stopped, nextToClaim < end {
            guard let index = claimLocked() else {
                condition.wait()
                continue
            }
            decodeClaimed(index, context: &context)
        }
        liveWorkers -= 1
        condition.broadcast()
        condition.unlock()
        if sharesWorkers { BulkWorkerAllowance.release() }
    }

    /// Delivers the next frame into `buffer`; nil after the last or once stopped. On a
    /// thrown error the run has stopped and the frames before it were delivered.
    func next(into buffer: inout PixelBuffer) throws -> Int? {
        let cpu0 = PayloadPipeline.threadCPUSeconds()
        condition.lock()
        if started == nil { started = PayloadPipeline.now() }
        guard nextToDeliver < end, !cancelled else {
            condition.unlock()
            return nil
        }
        let index = nextToDeliver
        var payload: Source.FramePayload??
        while !serial {
            if stopped {
                // Cancelled from another thread while this one waited.
                condition.unlock()
                return nil
            }
            if let entry = ready.removeValue(forKey: index) {
                payload = entry
                break
            }
            // Rather than wait, decode the next unclaimed frame here (it may be this one).
            if let claimed = claimLocked() {
                var context = consumerContext ?? source.makePayloadContext()
                consumerContext = nil
                decodeClaimed(claimed, context: &context)
                consumerContext = context
                continue
            }
            condition.wait()
        }
        nextToDeliver += 1
        // The window moved: a worker may claim another frame.
        condition.broadcast()
        condition.unlock()
        do {
            // Taken out of the optional, so the payload's storage has one owner and comes
            // back from `deliverFrame` unshared (a worker writes into it next).
            if let taken = payload.take(), let decoded = taken {
                let storage = try source.deliverFrame(index, payload: decoded, into: &buffer)
                condition.lock()
                if !storage.isEmpty, !stopped { pool.append(storage) }
                condition.unlock()
            } else {
                try source.decodeFrame(at: index, into: &buffer)
            }
        } catch {
            stop()
            throw error
        }
        noteDelivered(cpu: PayloadPipeline.threadCPUSeconds() - cpu0)
        return index
    }

    /// Counts a delivered frame and, every `checkInterval` frames, stops the workers when
    /// the run's threads got less than `minimumParallelism` cores.
    private func noteDelivered(cpu: Double) {
        condition.lock()
        cpuSeconds += cpu
        delivered += 1
        let check = !serial && !stopped && delivered % PayloadPipeline.checkInterval == 0
        let parallelism = cpuSeconds / max(1e-9, PayloadPipeline.now() - (started ?? 0))
        condition.unlock()
        if check, parallelism < minimumParallelism { goSerial() }
    }

    /// Stops the workers and lets the consumer go on one frame after another.
    private func goSerial() {
        stopWorkers()
        condition.lock()
        serial = true
        condition.unlock()
    }

    /// Whether the run stopped its workers for want of cores.
    var wentSerial: Bool {
        condition.lock()
        defer { condition.unlock() }
        return serial
    }

    /// Ends the run: no frame is claimed or delivered any more, payloads not delivered are
    /// freed, and this returns once every worker thread has ended.
    func stop() {
        condition.lock()
        cancelled = true
        condition.unlock()
        stopWorkers()
    }

    /// No frame is claimed any more; returns once every worker has ended, with what they
    /// decoded freed.
    private func stopWorkers() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while liveWorkers > 0 { condition.wait() }
        ready.removeAll()
        pool.removeAll()
        consumerContext = nil
        condition.unlock()
    }

    /// Payloads decoded and not yet delivered, plus recycled storage: the run's own bytes.
    var heldByteCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return pool.reduce(0) { $0 + $1.capacity } + ready.count * source.maxPayloadByteCount
    }

    /// CPU time of the calling thread.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
