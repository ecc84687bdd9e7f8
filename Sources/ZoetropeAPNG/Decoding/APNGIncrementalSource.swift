import Zoetrope

/// A PNG/APNG decoding session over a file that is still arriving
/// (`APNGCoder.makeIncrementalSource`).
///
/// Two locks: the receiving side (bytes, chunk walker, snapshot) and the decoding side
/// (canvas, frame stream, key frames), so an append never waits for a frame being decoded.
/// A decode takes the bytes and frame records complete at that moment and draws with the
/// same `APNGDecodeState` as `APNGFrameSource`, whose key-frame table grows as frames
/// arrive (and starts over when the animation falls back to the still image).
final class APNGIncrementalSource: IngestingFrameSource, SeekCostReporting {
    let options: DecodingOptions
    let ingest: Locked<APNGIncrementalIngest>
    /// The decode state and the snapshot revision its key-frame table belongs to.
    private let decoder = Locked<(state: APNGDecodeState, revision: Int)?>(nil)

    init(options: DecodingOptions) {
        self.options = options
        ingest = Locked(APNGIncrementalIngest(options: options))
    }

    /// The snapshot's info, or an empty PNG info before the header is in.
    var info: AnimationInfo { snapshotInfo(or: .png) }

    /// Bytes the chunk walker has looked at so far (each at most once).
    var bytesExamined: Int { ingest.withLock { $0.walker.bytesExamined } }

    var retainedByteCount: Int {
        let received = ingest.withLock { $0.bytes.capacity + ($0.index?.frames.capacity ?? 0) * MemoryLayout<APNGFrameRecord>.stride }
        return received + decoder.withLock { $0?.state.byteCount ?? 0 }
    }

    var decodedFrameCount: Int { decoder.withLock { $0?.state.decodedFrameCount ?? 0 } }

    func restartFrame(for index: Int) -> Int { decoder.withLock { $0?.state.keyFrames.restartFrame(for: index) ?? 0 } }

    func decodeFrame(at frameIndex: Int, into buffer: inout PixelBuffer) throws {
        let (prefix, index, snapshot, opaque, partial, colorTransform) = ingest.withLock {
            ($0.bytes.prefix, $0.index, $0.snapshot, $0.opaqueFrames, $0.partialFirstFrame, $0.colorTransform)
        }
        if frameIndex == 0, let partial, var still = index {
            // Frame 0 while it arrives: its rows so far, on a canvas of its own (the shared
            // one must not show a frame that is not final).
            still.frames = [partial]
            let canvas = still.header.size, limits = options.limits
            var state = APNGDecodeState(
                compositor: Compositor(size: canvas, holdsDrawnAreaOnly: true),
                keyFrames: KeyFrameTable(
                    [FramePlacement(rect: partial.rect, dispose: partial.dispose, blend: partial.blend, isOpaque: false)],
                    canvasSize: canvas))
            state.compositor.colorTransform = colorTransform
            try prefix.withBytes { file in
                let drawer = APNGFrameDrawer(index: still, file: file, format: still.format, limits: limits)
                try state.renderFrame(
                    0, input: drawer, into: &buffer, size: options.outputSize(forCanvas: canvas),
                    format: options.pixelFormat)
            }
            return
        }
        guard let index, frameIndex >= 0, frameIndex < index.frames.count else {
            throw IncrementalSnapshot.unavailableError(frameIndex, in: snapshot)
        }
        let canvas = index.header.size
        let size = options.outputSize(forCanvas: canvas), format = options.pixelFormat
        let limits = options.limits
        try decoder.withLock { slot in
            var entry =
                slot ?? (
                    APNGDecodeState(
                        compositor: Compositor(size: canvas, holdsDrawnAreaOnly: true),
                        keyFrames: KeyFrameTable([], canvasSize: canvas)), snapshot.revision
                )
            slot = nil
            if entry.revision != snapshot.revision {
                // The frames were withdrawn (the still image replaced the animation): start over.
                entry = (
                    APNGDecodeState(compositor: Compositor(size: canvas, holdsDrawnAreaOnly: true), keyFrames: KeyFrameTable([], canvasSize: canvas)),
                    snapshot.revision
                )
            }
            defer { slot = entry }
            entry.state.compositor.colorTransform = colorTransform
            for f in index.frames[entry.state.keyFrames.count...] {
                entry.state.keyFrames.append(FramePlacement(rect: f.rect, dispose: f.dispose, blend: f.blend, isOpaque: opaque))
            }
            entry.state.prepareCanvas(size: canvas)
            try prefix.withBytes { file in
                let drawer = APNGFrameDrawer(index: index, file: file, format: index.format, limits: limits)
                try entry.state.renderFrame(frameIndex, input: drawer, into: &buffer, size: size, format: format)
            }
        }
    }
}
