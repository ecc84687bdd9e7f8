/// A format's incremental source whose receiving side is one `IncrementalIngesting` value
/// behind a lock: the snapshot, appending and finishing are the same for every format, and
/// each source adds only how it decodes.
package protocol IngestingFrameSource: IncrementalFrameSource {
    associatedtype Ingest: IncrementalIngesting & Sendable
    /// The receiving side: the bytes, the format's resumable parser, the snapshot.
    var ingest: Locked<Ingest> { get }
}

extension IngestingFrameSource {
    /// What the bytes received so far say.
    package var snapshot: IncrementalSnapshot { ingest.withLock { $0.snapshot } }

    /// Appends and indexes `bytes` (see `IncrementalFrameSource.append(contentsOf:)`).
    @discardableResult
    package func append(contentsOf bytes: UnsafeRawBufferPointer) throws -> IncrementalSnapshot {
        try ingest.withLock { state throws(AnimatedImageError) in try state.append(bytes) }
    }

    /// Makes room for the whole file at once (see `IncrementalFrameSource.reserveCapacity(_:)`).
    package func reserveCapacity(_ totalByteCount: Int) {
        let capped = min(totalByteCount, options.limits.maxAllocationBytes)
        ingest.withLock { state in
            guard state.failure == nil, state.final == nil else { return }
            state.bytes.reserveCapacity(capped)
        }
    }

    /// Ends the data (see `IncrementalFrameSource.finish()`).
    @discardableResult
    package func finish() throws -> AnimationInfo {
        try ingest.withLock { state throws(AnimatedImageError) in try state.finish() }
    }

    /// The snapshot's info, or an empty `format` info before the canvas is known (what a
    /// `FrameSource` consumer of the session sees).
    package func snapshotInfo(or format: ImageFormat) -> AnimationInfo {
        snapshot.info
            ?? AnimationInfo(
                format: format, canvasSize: PixelSize(width: 0, height: 0), frameDurations: [],
                loopCount: .once, storedLoopValue: nil)
    }
}
