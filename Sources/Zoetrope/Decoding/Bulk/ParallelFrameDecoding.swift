/// A frame source whose frames' compressed data decode independently of one another, so a
/// `BulkFrameDecoder` can decode several frames' payloads on worker threads while it
/// composites them, in order, on the caller's thread.
///
/// A format whose frames each carry their own compressed stream adopts it (three built-in
/// codecs do): only compositing depends on the frames before. A coder of its own adopts it
/// the same way; a source that does not is decoded one frame after another.
///
/// `decodePayload` runs on several threads at once, each with its own context, so it may
/// read only what never changes (the file's bytes, the index). `deliverFrame` runs on the
/// consumer's thread, one frame after another, and leaves the source exactly as
/// `decodeFrame(at:into:)` of the same frame would.
package protocol ParallelFrameDecoding: FrameSource {
    /// What a worker decodes ahead for one frame: pixel rows or palette indices of the
    /// frame's rectangle.
    associatedtype FramePayload: Sendable
    /// A worker's own decoder state (a library handle, scratch buffers): made on the thread
    /// that uses it and never shared.
    associatedtype PayloadContext

    /// The most bytes one payload holds, so the frames in flight can be checked against
    /// `Limits` before any is decoded.
    var maxPayloadByteCount: Int { get }

    /// A fresh context for one worker thread.
    func makePayloadContext() -> PayloadContext

    /// Decodes frame `index`'s payload. `storage` is a recycled byte array the payload may
    /// take over (it may be empty or too small). Returns nil when the frame must go through
    /// `decodeFrame(at:into:)` instead: its data is damaged, or it needs the canvas. Must
    /// not throw: a failing frame is found, with its typed error, by that fallback.
    func decodePayload(_ index: Int, context: inout PayloadContext, storage: inout [UInt8]) -> FramePayload?

    /// Delivers frame `index` into `buffer` from its payload, as `decodeFrame(at:into:)`
    /// would (the same pixels, size and format). Frames arrive in order; a source whose
    /// canvas does not show the frame before falls back to its own path. Returns the
    /// payload's storage for reuse.
    func deliverFrame(_ index: Int, payload: consuming FramePayload, into buffer: inout PixelBuffer) throws -> [UInt8]
}
