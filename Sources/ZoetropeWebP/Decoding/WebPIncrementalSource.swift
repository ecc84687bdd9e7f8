import Zoetrope

/// A WebP decoding session over a file that is still arriving (`WebPCoder.makeIncrementalSource`).
///
/// Two locks: the receiving side (bytes, chunk walker, snapshot) and the decoding side
/// (canvas, scratch raster, key frames), so an append never waits for a frame being
/// decoded. A decode takes the bytes and frame records complete at that moment and draws
/// with the same `WebPDecodeState` as `WebPFrameSource`, whose key-frame table grows as
/// frames arrive (and starts over if frames were withdrawn).
final class WebPIncrementalSource: IngestingFrameSource, SeekCostReporting {
    let options: DecodingOptions
    let ingest: Locked<WebPIncrementalIngest>
    /// The decode state and the snapshot revision its key-frame table belongs to.
    private let decoder = Locked<(state: WebPDecodeState, revision: Int)?>(nil)

    init(options: DecodingOptions) {
        self.options = options
        ingest = Locked(WebPIncrementalIngest(options: options))
    }

    /// The snapshot's info, or an empty WebP info before the canvas is known.
    var info: AnimationInfo { snapshotInfo(or: .webp) }

    /// Bytes the chunk walker has looked at so far (each at most once).
    var bytesExamined: Int { ingest.withLock { $0.walker.bytesExamined } }

    /// Whether the walker stopped following the chunks (a file it cannot follow chunk by
    /// chunk: its frames come from the whole-file index at the RIFF end or at `finish()`).
    var isDeferred: Bool { ingest.withLock { $0.walker.mode == .deferred } }

    var retainedByteCount: Int {
        let received = ingest.withLock {
            $0.bytes.capacity + ($0.frames.capacity + $0.walker.frames.capacity) * MemoryLayout<WebPFrameRecord>.stride
        }
        return received + decoder.withLock { $0?.state.byteCount ?? 0 }
    }

    var decodedFrameCount: Int { decoder.withLock { $0?.state.decodedFrameCount ?? 0 } }

    func restartFrame(for index: Int) -> Int { decoder.withLock { $0?.state.keyFrames.restartFrame(for: index) ?? 0 } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        let (prefix, frames, snapshot, partial, transform) = ingest.withLock {
            ($0.bytes.prefix, $0.frames, $0.snapshot, $0.partialFirstFrame, $0.colorTransform)
        }
        if index == 0, let partial, let canvas = snapshot.canvasSize {
            let options = options
            try prefix.withBytes { file in
                try WebPPartialFrame.decode(
                    partial, file: file, canvas: canvas, options: options, colorTransform: transform,
                    into: &buffer)
            }
            return
        }
        guard index >= 0, index < frames.count, let canvas = snapshot.canvasSize else {
            throw IncrementalSnapshot.unavailableError(index, in: snapshot)
        }
        let size = options.outputSize(forCanvas: canvas), format = options.pixelFormat
        let threads = (options.threadCount ?? 1) > 1
        func fresh() -> (state: WebPDecodeState, revision: Int) {
            (
                WebPDecodeState(
                    canvasSize: canvas, keyFrames: KeyFrameTable([], canvasSize: canvas, keyFramesReplace: true),
                    scratchPixels: 0, useThreads: threads), snapshot.revision
            )
        }
        try decoder.withLock { slot in
            var entry = slot ?? fresh()
            slot = nil
            // Frames were withdrawn (the whole-file index differs from what was reported): start over.
            if entry.revision != snapshot.revision { entry = fresh() }
            defer { slot = entry }
            entry.state.compositor.colorTransform = transform
            for record in frames[entry.state.keyFrames.count...] {
                entry.state.keyFrames.append(
                    FramePlacement(
                        rect: record.rect, dispose: record.dispose, blend: record.blend,
                        isOpaque: !record.hasAlpha))
            }
            entry.state.ensureCanvas()
            try prefix.withBytes { file in
                if snapshot.state == .receiving, index + 1 == frames.count {
                    // The last frame so far: through the canvas, which the next frame to
                    // arrive continues from (a straight decode into the caller's buffer
                    // would make it restart from its key frame).
                    try entry.state.render(index, input: (file, frames))
                    entry.state.compositor.copyCanvas(into: &buffer, size: size, format: format)
                } else {
                    try entry.state.renderFrame(index, input: (file, frames), into: &buffer, size: size, format: format)
                }
            }
        }
    }
}
