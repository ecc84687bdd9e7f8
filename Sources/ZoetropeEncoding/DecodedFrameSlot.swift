import Dispatch
import Zoetrope

/// One frame being decoded on a background queue, to be collected with `wait()`.
final class DecodedFrameSlot: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<Result<PixelBuffer, any Error>?>(nil)

    /// Starts decoding the next frame of `run` (which must be frame `index`) on `queue`.
    static func start(index: Int, run: BulkFrameDecoder, on queue: DispatchQueue) -> DecodedFrameSlot {
        let slot = DecodedFrameSlot()
        queue.async {
            let r = Result { () throws -> PixelBuffer in
                var pixels = PixelBuffer()
                guard try run.nextFrame(into: &pixels) == index else {
                    throw AnimatedImageError.invalidArgument("the bulk run ended before frame \(index)")
                }
                return pixels
            }
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
