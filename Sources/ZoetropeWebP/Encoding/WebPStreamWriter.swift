import CWebP
import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `WebPEncoder`'s streaming session. Each frame is compared with the canvas before it,
/// encoded by libwebp as the rectangle that changed (blended or not, the previous frame
/// disposed or not, whichever is smaller) and written out as soon as the next frame has
/// settled its disposal, so memory holds two canvases, one encoded frame and libwebp's
/// working set, never the file (`WebPSpillBuffer` moves long outputs to a temporary file).
final class WebPStreamWriter: AnimatedImageWriter {
    /// What kinds of frame to try.
    enum Mode { case lossless, lossy, mixed }

    /// A frame encoded and placed, its disposal still open until the next frame is chosen.
    struct Frame {
        var data: [UInt8]
        var hasAlpha: Bool
        var rect: PixelRect
        var blend: Bool
        var durationMs = 0
        /// How long the frame displays, in ms (`durationMs` after the default delay policy).
        var displayMs = 0
        var disposeToBackground = false
    }

    private let canvasSize: PixelSize
    private let loopCount: Int
    private let mode: Mode
    private let settings: WebPFrameEncoder
    private var previous: WebPCanvas
    private var current: WebPCanvas
    private var pending: Frame?
    /// The first frame's durations (ms, displayed ms) while its encoding waits for the next
    /// frame: a single frame is written as a still image, so encoding it as an animation
    /// frame first would be wasted (on a still, the whole time of a second encode).
    private var heldFirst: (ms: Int, displayMs: Int)?
    private let out: WebPSpillBuffer
    private var hasAlpha = false
    private var writtenFrames = 0
    private var finished = false
    private var result: Data?
    private(set) var frameCount = 0
    /// The ICC profile written in `ICCP`, and the Exif/XMP written after the frames.
    private let profile: ICCProfile?
    private let metadata: EmbeddedMetadata

    init(
        canvasSize: PixelSize, loopCount: Int, mode: Mode, settings: WebPFrameEncoder, spillDirectory: URL?,
        profile: ICCProfile? = nil, metadata: EmbeddedMetadata = .none
    ) {
        out = WebPSpillBuffer(headerSize: WebPContainer.headerSize(profile: profile), directory: spillDirectory)
        self.profile = profile
        self.metadata = metadata
        self.canvasSize = canvasSize
        self.loopCount = loopCount
        self.mode = mode
        self.settings = settings
        previous = WebPCanvas(width: canvasSize.width, height: canvasSize.height)
        current = WebPCanvas(width: canvasSize.width, height: canvasSize.height)
    }

    func add(_ frame: EncodingFrame) throws {
        guard !finished else { throw AnimatedImageError.invalidArgument("WebPEncoder: frame added after finish()") }
        let i = frameCount
        // A frame longer than WebP's 24 bits of milliseconds is stored that long, as GIF and
        // APNG store their longest delay.
        let ms = min(WebPEncoder.milliseconds(frame.duration), 0xFF_FFFF)
        // What the frame displays as stored alone (10 ms or less: 100 ms).
        let shownMs = WebPEncoder.milliseconds(DelayPolicy.default.displayDuration(for: .milliseconds(Int64(ms))))
        let pixels = try frame.straightPixels(canvasSize: canvasSize, index: i)
        if let held = heldFirst {
            // A second frame: the first is encoded now, over the blank canvas.
            heldFirst = nil
            swap(&previous, &current)
            var first = try firstFrame()
            first.durationMs = held.ms
            first.displayMs = held.displayMs
            pending = first
            swap(&previous, &current)
        }
        current.load(pixels)
        if var last = pending {
            var chosen = try nextFrame(index: i)
            if chosen == nil, last.displayMs + shownMs > 0xFF_FFFF {
                // Too long to merge into the previous frame: store one unchanged pixel.
                let one = PixelRect(x: 0, y: 0, width: 1, height: 1)
                var view = current.view(one)
                let encoded = try settings.encode(&view, lossless: true, forBlend: false, index: i)
                chosen = (Frame(data: encoded.data, hasAlpha: encoded.hasAlpha, rect: one, blend: false), false)
            }
            if let (chosen, disposePrevious) = chosen {
                var next = chosen
                last.disposeToBackground = disposePrevious
                try write(last)
                next.durationMs = ms
                next.displayMs = shownMs
                pending = next
            } else {
                // Nothing changed: the previous frame lasts longer, and stays the reference.
                // It lasts what the two displayed (a frame of 10 ms or less shows 100 ms),
                // so the timeline plays as before: two of 0 ms become one of 200 ms.
                last.durationMs = last.displayMs + shownMs
                last.displayMs = last.durationMs
                pending = last
                frameCount += 1
                return
            }
        } else {
            heldFirst = (ms, shownMs)
        }
        swap(&previous, &current)
        frameCount += 1
    }

    func finish() throws -> Data {
        if let result { return result }
        let data = try finishFrames() ?? out.data(header: header())
        result = data
        return data
    }

    func finish(to url: URL) throws {
        if let result {
            try result.write(to: url, options: .atomic)
        } else if let still = try finishFrames() {
            try still.write(to: url, options: .atomic)
        } else {
            try out.write(header: header(), to: url)
        }
    }

    // MARK: - Choosing frames

    /// The first frame: the rectangle that differs from a transparent canvas, not blended.
    private func firstFrame() throws -> Frame {
        let blank = WebPPreviousCanvas(canvas: previous, cleared: nil)
        var rect = WebPFrameDiff.changedRect(blank, current, within: current.fullRect, tolerance: 0)
        if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        let candidates = try self.candidates(over: blank, rectLossless: rect, allowBlend: false, index: 0)
        return candidates.min { $0.data.count < $1.data.count }!
    }

    /// The smallest encoding of the current frame and whether the previous frame should be
    /// disposed to the background for it; nil when the frame equals the canvas before it.
    private func nextFrame(index: Int) throws -> (Frame, Bool)? {
        let kept = WebPPreviousCanvas(canvas: previous, cleared: nil)
        let full = current.fullRect
        let keptLL = WebPFrameDiff.changedRect(kept, current, within: full, tolerance: 0)
        let keptArea = area(kept, keptLL)
        guard keptArea > 0 else { return nil }

        // Disposing the previous frame helps when what it drew is gone again.
        let disposed = WebPPreviousCanvas(canvas: previous, cleared: pending!.rect)
        var disposedLL = WebPFrameDiff.changedRect(disposed, current, within: full, tolerance: 0)
        if disposedLL.isEmpty { disposedLL = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        let useDisposed = area(disposed, disposedLL) < keptArea

        let canvas = useDisposed ? disposed : kept
        let candidates = try self.candidates(
            over: canvas, rectLossless: useDisposed ? disposedLL : keptLL,
            allowBlend: true, index: index)
        return (candidates.min { $0.data.count < $1.data.count }!, useDisposed)
    }

    /// The area compared for the dispose choice: the lossless rectangle, or for lossy and
    /// mixed output the smaller rectangle lossy encoding would store.
    private func area(_ canvas: WebPPreviousCanvas, _ rectLL: PixelRect) -> Int {
        guard !rectLL.isEmpty else { return 0 }
        guard mode != .lossless else { return rectLL.width * rectLL.height }
        let r = WebPFrameDiff.changedRect(canvas, current, within: rectLL, tolerance: settings.lossyTolerance)
        return r.isEmpty ? 0 : r.width * r.height
    }

    /// Every encoding worth trying over `canvas`: lossless (blended when that can be exact,
    /// and plain when most of the rectangle changed) and lossy, as the mode says.
    private func candidates(
        over canvas: WebPPreviousCanvas, rectLossless rect: PixelRect, allowBlend: Bool,
        index: Int
    ) throws -> [Frame] {
        var tryLossless = mode == .lossless, tryLossy = mode == .lossy
        if mode != .lossless {
            // Few colours (a palette source) often code smaller losslessly than lossy: a
            // lossy request keeps whichever is smaller, so asking for lossy never costs bytes.
            let colours = WebPFrameDiff.colourCount(current, rect: rect, limit: 256)
            tryLossless = colours < 194
            tryLossy = mode == .lossy || colours >= 31
        }
        var result: [Frame] = []
        if tryLossless {
            let (blendable, unchanged) = allowBlend ? WebPFrameDiff.blendability(canvas, current, rect: rect) : (false, 0)
            let unchangedShare = Double(unchanged) / Double(rect.width * rect.height)
            let plain = !blendable || unchangedShare < settings.blendFromUnchangedShare.upperBound
            if blendable && unchangedShare >= settings.blendFromUnchangedShare.lowerBound {
                WebPFrameDiff.makeUnchangedTransparent(canvas, current, rect: rect)
                defer { WebPFrameDiff.restore(canvas, current, rect: rect) }
                var view = current.view(rect)
                let e = try settings.encode(&view, lossless: true, forBlend: true, index: index)
                result.append(Frame(data: e.data, hasAlpha: e.hasAlpha, rect: rect, blend: true))
            }
            if plain {
                var view = current.view(rect)
                let e = try settings.encode(&view, lossless: true, forBlend: false, index: index)
                result.append(Frame(data: e.data, hasAlpha: e.hasAlpha, rect: rect, blend: false))
            }
        }
        if tryLossy {
            var lossyRect = WebPFrameDiff.changedRect(canvas, current, within: rect, tolerance: settings.lossyTolerance)
            if lossyRect.isEmpty { lossyRect = rect }
            let blendable = allowBlend && WebPFrameDiff.blendability(canvas, current, rect: lossyRect).possible
            var copy = try settings.copy(current, lossyRect)
            if blendable {
                WebPFrameDiff.flattenUnchangedBlocks(canvas, rect: lossyRect, picture: copy.argb, stride: Int(copy.argb_stride))
            }
            let e = try settings.encode(&copy, lossless: false, forBlend: blendable, index: index)
            result.append(Frame(data: e.data, hasAlpha: e.hasAlpha, rect: lossyRect, blend: blendable))
        }
        return result
    }

    // MARK: - Output

    private func write(_ frame: Frame) throws {
        hasAlpha = hasAlpha || frame.hasAlpha
        try out.append(
            WebPContainer.frameChunk(
                frame.data, rect: frame.rect, durationMs: frame.durationMs,
                blend: frame.blend, disposeToBackground: frame.disposeToBackground))
        writtenFrames += 1
    }

    private func header() throws -> [UInt8] {
        guard WebPContainer.headerSize(profile: profile) - 8 + out.count <= Int(UInt32.max) - 1 else {
            throw WebPStreamWriter.failure("the animation is larger than a RIFF file can hold (4 GiB)")
        }
        return WebPContainer.header(
            canvas: canvasSize, loopCount: loopCount, hasAlpha: hasAlpha, bodySize: out.count,
            profile: profile, trailerFlags: WebPContainer.trailer(metadata).flags)
    }

    /// Ends the frames: writes the last one, or for a single frame returns a still image.
    private func finishFrames() throws -> Data? {
        guard !finished else { throw AnimatedImageError.invalidArgument("WebPEncoder: finish() called twice") }
        guard pending != nil || heldFirst != nil else {
            throw AnimatedImageError.invalidArgument("WebPEncoder needs at least one frame")
        }
        finished = true
        let last = pending
        pending = nil
        heldFirst = nil
        if writtenFrames == 0 {
            let still = try settings.encodeStill(previous, mode: mode)  // the last canvas (swapped in by add)
            guard profile != nil || !metadata.isEmpty else { return still }
            // A profile or metadata needs the extended format: VP8X, ICCP, image, EXIF, XMP.
            let extended = still.withUnsafeBytes {
                WebPContainer.still($0, canvas: canvasSize, profile: profile, metadata: metadata)
            }
            guard let extended else {
                throw WebPStreamWriter.failure("the still image with its profile and metadata does not fit a RIFF file")
            }
            return Data(extended)
        }
        guard let last else { throw AnimatedImageError.invalidArgument("WebPEncoder needs at least one frame") }
        try write(last)
        let trailer = WebPContainer.trailer(metadata).bytes
        if !trailer.isEmpty { try out.append(trailer) }
        return nil
    }

    static func failure(_ message: String) -> AnimatedImageError {
        .codecFailure(format: .webp, library: "libwebp", message: message)
    }
}
