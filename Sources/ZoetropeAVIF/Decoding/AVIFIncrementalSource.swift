import Zoetrope

/// An AVIF decoding session over a file that is still arriving
/// (`AVIFCoder.makeIncrementalSource`).
///
/// Two locks: the receiving side (bytes, top-level scan, metadata, snapshot) and the
/// decoding side (a libavif decoder over the bytes received), so an append never waits for
/// a frame being decoded. Once the data is complete, frames come from the whole-file source
/// that `finish()` opened over the bytes received.
final class AVIFIncrementalSource: IngestingFrameSource {
    let options: DecodingOptions
    let ingest: Locked<AVIFIncrementalIngest>
    private let decoder = Locked<AVIFIncrementalDecoder?>(nil)

    init(options: DecodingOptions) {
        self.options = options
        ingest = Locked(AVIFIncrementalIngest(options: options))
    }

    /// Bytes the top-level scan and the metadata parse have looked at so far (each at most once).
    var bytesExamined: Int { ingest.withLock { $0.bytesExamined } }

    @discardableResult
    func finish() throws -> AnimationInfo {
        let info = try ingest.withLock { state throws(AnimatedImageError) in try state.finish() }
        // The whole-file source decodes from now on.
        decoder.withLock { $0 = nil }
        return info
    }

    var retainedByteCount: Int {
        let (received, final) = ingest.withLock { ($0.bytes.capacity, $0.final) }
        return received + (final?.retainedByteCount ?? decoder.withLock { $0?.retainedByteCount ?? 0 })
    }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        let (prefix, snapshot, final, plan) = ingest.withLock { ($0.bytes.prefix, $0.snapshot, $0.final, $0.plan) }
        if let final {
            try final.decodeFrame(at: index, into: &buffer)
            return
        }
        guard let plan, index >= 0, index < snapshot.frameCount else {
            throw IncrementalSnapshot.unavailableError(index, in: snapshot)
        }
        let size = options.outputSize(forCanvas: plan.canvas), format = options.pixelFormat, limits = options.limits
        try decoder.withLock { (slot: inout AVIFIncrementalDecoder?) throws(AnimatedImageError) in
            if slot == nil { slot = try AVIFIncrementalDecoder(plan: plan, prefix: prefix, limits: limits) }
            try slot!.decode(index, prefix: prefix, into: &buffer, size: size, format: format)
        }
    }
}
