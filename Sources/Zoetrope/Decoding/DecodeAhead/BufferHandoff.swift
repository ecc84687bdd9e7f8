/// Carries a pooled buffer from the engine to the decode job without leaving a second
/// reference behind: the job takes it out, so decoding into it never copies the storage.
final class BufferHandoff: Sendable {
    private let slot: Locked<PixelBuffer?>
    let byteCount: Int

    init(_ buffer: consuming PixelBuffer) {
        byteCount = buffer.byteCount
        slot = Locked(buffer)
    }

    /// The buffer, once; later calls get an empty one.
    func take() -> PixelBuffer {
        slot.withLock { b in
            let out = b.take() ?? PixelBuffer()
            return out
        }
    }
}
