import Foundation

/// The engine under `BulkFrameDecoder` for one `ParallelFrameDecoding` source: worker
/// threads claim frames in order and decode their payloads, at most `window` frames ahead
/// of the consumer; the consumer takes them in order, helps decode while it would otherwise
/// wait, and delivers each frame through the source.
///
/// Payload storage is recycled: a delivered frame's storage goes back to a pool the next
/// claim takes from, so a run allocates about `window` + 1 payloads, however many frames.
final class PayloadPipeline<Source: ParallelFrameDecoding>: @unchecked Sendable {
    // @unchecked: every stored `var` below is read and written only with `condition` locked;
    // `source` is Sendable and the lets never change.
    private let source: Source
    private let end: Int
    private let window: Int
    private let condition = NSCondition()
    /// The next frame no thread has claimed yet.
    private var nextToClaim: Int
    /// The next frame the consumer delivers.
    private var nextToDeliver: Int
    /// Decoded frames not yet delivered: a payload, or nil when the frame must take the
    /// source's own path.
    private var ready: [Int: Source.FramePayload?] = [:]
    /// Storage of delivered payloads, for the next claims.
    private var pool: [[UInt8]] = []
    private var stopped = false
    private var liveWorkers = 0
    /// The consumer's decoding context, made the first time it helps.
    private var consumerContext: Source.PayloadContext?

    init(source: Source, frames: Range<Int>, window: Int) {
        self.source = source
        self.end = frames.upperBound
        self.window = max(1, window)
        nextToClaim = frames.lowerBound
        nextToDeliver = frames.lowerBound
    }

    /// Starts `count` worker threads.
    func start(workers count: Int) {
        condition.lock()
        liveWorkers += count
        condition.unlock()
        for _ in 0..<count {
            let thread = Thread { [self] in workLoop() }
            thread.name = "zoetrope.bulk"
            thread.start()
        }
    }

    /// Claims the next frame within the window, with storage to decode it into; nil when
    /// the run is stopped or every frame is claimed. Called with `condition` locked.
    private func claimLocked() -> (index: Int, storage: [UInt8])? {
        guard !stopped, nextToClaim < end, nextToClaim < nextToDeliver + window else { return nil }
        let index = nextToClaim
        nextToClaim += 1
        return (index, pool.popLast() ?? [])
    }

    private func workLoop() {
        var context = source.makePayloadContext()
        condition.lock()
        while true {
            if stopped || nextToClaim >= end { break }
            guard let (index, storage) = claimLocked() else {
                condition.wait()
                continue
            }
            condition.unlock()
            var spare = storage
            let payload = source.decodePayload(index, context: &context, storage: &spare)
            condition.lock()
            ready[index] = .some(payload)
            if !spare.isEmpty { pool.append(spare) }
            condition.broadcast()
        }
        liveWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Delivers the next frame into `buffer`; nil after the last. On a thrown error the run
    /// has stopped and the frames before it were delivered.
    func next(into buffer: inout PixelBuffer) throws -> Int? {
        condition.lock()
        guard !stopped, nextToDeliver < end else {
            condition.unlock()
            return nil
        }
        let index = nextToDeliver
        var payload: Source.FramePayload?
        while true {
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
            if let (claimed, storage) = claimLocked() {
                var context = consumerContext ?? source.makePayloadContext()
                consumerContext = nil
                condition.unlock()
                var spare = storage
                let decoded = source.decodePayload(claimed, context: &context, storage: &spare)
                condition.lock()
                consumerContext = context
                ready[claimed] = .some(decoded)
                if !spare.isEmpty { pool.append(spare) }
                condition.broadcast()
                continue
            }
            condition.wait()
        }
        nextToDeliver += 1
        // The window moved: a worker may claim another frame.
        condition.broadcast()
        condition.unlock()
        do {
            if let payload {
                let storage = try source.deliverFrame(index, payload: payload, into: &buffer)
                if !storage.isEmpty {
                    condition.lock()
                    pool.append(storage)
                    condition.unlock()
                }
            } else {
                try source.decodeFrame(at: index, into: &buffer)
            }
        } catch {
            stop()
            throw error
        }
        return index
    }

    /// Stops the run: no frame is claimed any more, payloads not delivered are freed, and
    /// this returns once every worker thread has ended.
    func stop() {
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
}
