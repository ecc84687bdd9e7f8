import Zoetrope

/// A GIF decoding session over a file that is still arriving (`GIFCoder.makeIncrementalSource`).
///
/// Two locks: the receiving side (bytes, parser, snapshot) and the decoding side (canvas,
/// giflib, key frames), so an append never waits for a frame being decoded. A decode takes
/// the bytes and frame records complete at that moment and draws with the same
/// `GIFDecodeState` as `GIFFrameSource`, whose key-frame table grows as frames arrive.
final class GIFIncrementalSource: IngestingFrameSource, SeekCostReporting {
    let options: DecodingOptions
    let ingest: Locked<GIFIncrementalIngest>
    private let decoder = Locked<GIFDecodeState?>(nil)

    init(options: DecodingOptions) {
        self.options = options
        ingest = Locked(GIFIncrementalIngest(options: options))
    }

    /// The snapshot's info (what a `FrameSource` consumer sees), or an empty GIF info before
    /// the canvas is known.
    var info: AnimationInfo { snapshotInfo(or: .gif) }

    /// Bytes the parser has looked at so far (each byte of the file at most once).
    var bytesExamined: Int { ingest.withLock { $0.parser.bytesExamined } }

    var retainedByteCount: Int {
        let received = ingest.withLock { $0.bytes.capacity + $0.frames.capacity * MemoryLayout<GIFFrameRecord>.stride }
        return received + decoder.withLock { s in s.map { $0.compositor.byteCount + $0.line.capacity + $0.palette.capacity * 4 } ?? 0 }
    }

    var decodedFrameCount: Int { decoder.withLock { $0?.decodedFrameCount ?? 0 } }

    func restartFrame(for index: Int) -> Int { decoder.withLock { $0?.keyFrames.restartFrame(for: index) ?? 0 } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        let (prefix, frames, snapshot, partial, transform) = ingest.withLock {
            ($0.bytes.prefix, $0.frames, $0.snapshot, $0.partialFirstFrame, $0.colorTransform)
        }
        if index == 0, let partial, let canvas = snapshot.canvasSize {
            let options = options
            try prefix.withBytes { file in
                try GIFPartialFrame.decode(
                    partial.record, dataEnd: partial.dataEnd, file: file, canvas: canvas,
                    options: options, colorTransform: transform, into: &buffer)
            }
            return
        }
        guard index >= 0, index < frames.count, let canvas = snapshot.canvasSize else {
            throw IncrementalSnapshot.unavailableError(index, in: snapshot)
        }
        let size = options.outputSize(forCanvas: canvas), format = options.pixelFormat
        // Full size, straight alpha, no colour conversion: the caller's buffer becomes the
        // canvas itself (copy-on-write), as in `GIFFrameSource`.
        let direct = size == canvas && format == .rgba8 && transform == nil
        try decoder.withLock { slot in
            var state = slot ?? GIFDecodeState(canvasSize: canvas, keyFrames: KeyFrameTable([], canvasSize: canvas))
            slot = nil
            defer { slot = state }
            state.compositor.colorTransform = transform
            // The key-frame table grows with the frames indexed since the last decode.
            for record in frames[state.keyFrames.count...] {
                state.keyFrames.append(
                    FramePlacement(
                        rect: record.rect, dispose: record.disposal, blend: .over,
                        isOpaque: record.transparentIndex == nil))
            }
            state.ensureCanvas()
            if direct { state.reclaim(&buffer) }
            try prefix.withBytes { bytes in try state.render(index, input: (bytes, frames)) }
            state.handOut(into: &buffer, direct: direct, size: size, format: format)
        }
    }
}
