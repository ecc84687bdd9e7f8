import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A GIF decoding session: the index from the first pass, the file's bytes, and one
/// canvas composited frame by frame with giflib.
///
/// Memory is the file, the canvas, the region "restore to previous" saves, one row of
/// palette indices and giflib's LZW tables — never the whole animation. Decoding in order
/// costs one frame per call. Any other frame is reached by the cheaper of continuing from
/// the frame the canvas shows and restarting from the nearest earlier key frame (the shared
/// rule of `KeyFrameTable`: the first frame, one after a frame that leaves the canvas
/// transparent, one that covers the canvas opaquely), so a seek costs at most the frames
/// since that key frame.
final class GIFFrameSource: SeekCostReporting {
    let options: DecodingOptions
    let data: Data
    /// The canvas: the same in the walk's index and the final one.
    let canvasSize: PixelSize
    /// The index and the info, or, for a big file opened in two steps, the walk's index
    /// until something needs the frame count (`GIFProvisionalIndex`).
    let indexing: Locked<GIFIndexing>
    private let state: Locked<GIFDecodeState>

    /// Opens `data` as `options.tuning` says (`OpenStrategy`): a big file in two steps
    /// (`GIFProvisionalIndex`, `lazyInfo`), any other whole.
    init(data: Data, options: DecodingOptions) throws {
        let strategy = options.tuning.gifOpenStrategy(byteCount: data.count)
        let provisional =
            strategy == .wholeIndex
            ? nil
            : data.withUnsafeBytes { raw in GIFProvisionalIndex(raw, limits: options.limits, tuning: options.tuning) }
        // The walk's index has at least the final frames: a budget it passes, the final one passes.
        if let provisional, (try? GIFFrameSource.checkBudget(provisional.index, options: options)) != nil {
            indexing = Locked(.walked(provisional))
            canvasSize = provisional.index.canvasSize
            state = Locked(
                GIFDecodeState(
                    canvasSize: canvasSize,
                    keyFrames: KeyFrameTable(
                        provisional.index.placements,
                        canvasSize: canvasSize)))
        } else {
            let index = try data.withUnsafeBytes { raw in
                try GIFIndex.parse(
                    raw, limits: options.limits, partialFirstFrame: options.showsPartialFirstFrame, tuning: options.tuning)
            }
            try GIFFrameSource.checkBudget(index, options: options)
            indexing = Locked(.complete(GIFIndexing.Complete(index, options: options)))
            canvasSize = index.canvasSize
            self.state = Locked(
                GIFDecodeState(
                    canvasSize: canvasSize,
                    keyFrames: KeyFrameTable(
                        index.placements,
                        canvasSize: canvasSize)))
        }
        self.data = data
        self.options = options
    }

    /// What the session holds (`GIFIndex.checkBudget`).
    private static func checkBudget(_ index: GIFIndex, options: DecodingOptions) throws(AnimatedImageError) {
        try GIFIndex.checkBudget(
            canvas: index.canvasSize, frameCount: index.frames.count,
            lineBytes: index.frames.map(GIFDecodeState.lineByteCount).max() ?? 0, limits: options.limits)
    }

    /// A session over `data` from an index another session read (`sessionMaker()`).
    init(data: Data, options: DecodingOptions, complete: GIFIndexing.Complete) {
        indexing = Locked(.complete(complete))
        canvasSize = complete.index.canvasSize
        state = Locked(
            GIFDecodeState(
                canvasSize: canvasSize,
                keyFrames: KeyFrameTable(
                    complete.index.placements,
                    canvasSize: canvasSize)))
        self.data = data
        self.options = options
    }

    /// The final index, info and largest image, completing a two-step index first.
    var complete: GIFIndexing.Complete {
        indexing.withLock { indexing in
            switch indexing {
            case .complete(let complete):
                return complete
            case .walked(let provisional):
                let index: GIFIndex
                switch data.withUnsafeBytes({ raw in Result { () throws(AnimatedImageError) in try provisional.complete(raw) } }) {
                case .success(let complete):
                    index = complete
                case .failure(let error):
                    // Not reached (the walk passed the limits of a file with fewer frames);
                    // should it be, frame 0 is what decodes.
                    var first = provisional.index
                    first.frames = [first.frames[0]]
                    first.truncation = error
                    index = first
                }
                let complete = GIFIndexing.Complete(index, options: options)
                indexing = .complete(complete)
                return complete
            }
        }
    }

    /// The whole-file info: for a file opened in two steps, the first use scans the rest
    /// of the file (frame 0 decodes without it).
    var info: AnimationInfo { complete.info }
    var index: GIFIndex { complete.index }
    /// Pixels of the largest image: the most indices a bulk run's payload holds.
    var largestImagePixels: Int { complete.largestImagePixels }

    var retainedByteCount: Int {
        let frames = indexing.withLock { $0.frameCapacity }
        return state.withLock { $0.compositor.byteCount + $0.line.capacity + $0.palette.capacity * 4 }
            + frames * MemoryLayout<GIFFrameRecord>.stride
    }

    var decodedFrameCount: Int { state.withLock { $0.decodedFrameCount } }

    func restartFrame(for index: Int) -> Int { state.withLock { $0.keyFrames.restartFrame(for: index) } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        // Frame 0 decodes from the walk's records (the first frame always survives the
        // scans); any other frame needs the final frame count.
        let frames: [GIFFrameRecord]
        if index == 0, let (record, end) = indexing.withLock({ $0.partialFirstFrame }) {
            let canvas = canvasSize, options = options
            let transform = isWaitingForScans ? nil : complete.colorTransform
            try data.withUnsafeBytes { file in
                try GIFPartialFrame.decode(
                    record, dataEnd: end, file: file, canvas: canvas, options: options,
                    colorTransform: transform, into: &buffer)
            }
            return
        } else if index == 0, let walked = indexing.withLock({ $0.walkedFrames }) {
            frames = walked
        } else {
            try checkFrameIndex(index)
            frames = self.index.frames
        }
        try deliver(index, into: &buffer) { state in
            // On failure the canvas shows no known frame, and the next call rebuilds it.
            try data.withUnsafeBytes { bytes in try state.render(index, input: (bytes, frames)) }
        }
    }

    /// Brings the canvas to frame `index` with `draw` and hands it to the caller.
    func deliver(_ index: Int, into buffer: inout PixelBuffer, draw: (inout GIFDecodeState) throws -> Void) throws {
        let size = options.outputSize(forCanvas: canvasSize), format = options.pixelFormat
        // The colour conversion, once the index is complete (a big file opened in two steps
        // converts from its first call after the scans).
        let colorTransform = isWaitingForScans ? nil : complete.colorTransform
        // Full size, straight alpha, no colour conversion: the caller's buffer becomes the
        // canvas itself (copy-on-write), so a frame costs no copy when the caller passes that
        // buffer back. A converted frame is a copy: the canvas keeps the file's values.
        let direct = size == canvasSize && format == .rgba8 && colorTransform == nil
        try state.withLock { state in
            state.compositor.colorTransform = colorTransform
            state.ensureCanvas()
            if direct { state.reclaim(&buffer) }
            try draw(&state)
            state.handOut(into: &buffer, direct: direct, size: size, format: format)
        }
    }
}

extension GIFFrameSource {
    /// Whether the index still waits for the scans after frame 0 (a big file opened in two steps).
    var isWaitingForScans: Bool { indexing.withLock { $0.walkedFrames != nil } }
}
