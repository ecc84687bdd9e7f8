import Dispatch

/// One frame being decoded on a background queue, to be collected with `wait()`.
final class DecodedFrameSlot: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<Result<PixelBuffer, any Error>?>(nil)

    /// Starts decoding frame `index` of `source` on `queue`.
    static func start(index: Int, source: any FrameSource, on queue: DispatchQueue) -> DecodedFrameSlot {
        let slot = DecodedFrameSlot()
        queue.async {
            let r = Result { try source.decodeFrame(at: index) }
            slot.result.withLock { $0 = r }
            slot.done.signal()
        }
        return slot
    }

    /// Waits for the frame and returns it, or throws the decoding error.
    func wait() throws -> PixelBuffer {
        done.wait()
        let r = result.withLock { value -> Result<PixelBuffer, any Error>? in
            let v = value
            value = nil
            return v
        }
        return try r!.get()
    }
}
