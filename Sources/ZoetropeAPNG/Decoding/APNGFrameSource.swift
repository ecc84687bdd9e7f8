import Zoetrope
import ZoetropeColor

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoding session over one PNG or APNG.
///
/// Sequential decoding draws each frame once onto a kept canvas. Any other frame is reached
/// by the cheaper of continuing from the frame the canvas shows and restarting from the
/// nearest earlier key frame (the shared rule of `KeyFrameTable`: frame 0, a frame that
/// replaces the whole canvas and is not disposed to PREVIOUS, a frame after one that leaves
/// the canvas transparent), so a seek costs at most the frames since that key frame. A
/// full-canvas frame that replaces every pixel and is followed by a key frame decodes
/// straight into the caller's buffer when it asks for the full canvas in straight alpha.
final class APNGFrameSource: SeekCostReporting {
    let info: AnimationInfo
    let options: DecodingOptions
    let index: APNGIndex
    let data: Data
    let state: Locked<APNGDecodeState>
    /// RGBA bytes of the largest frame at the decoded depth: the most a bulk run's payload holds.
    let largestFrameBytes: Int
    /// Whether the open drew frame 0 (`APNGFirstFrameDraw`): the canvas showed it before any call.
    let drewFirstFrameAtOpen: Bool
    /// The conversion of the file's colour to sRGB, applied as each frame leaves the canvas
    /// (nil: none needed, or `.stored` asked for).
    let colorTransform: (any ColorTransform)?

    /// Opens `data` as `options.tuning` says (`OpenStrategy`): a big file draws frame 0 on
    /// this thread while a new one walks the rest of its chunks (`APNGFirstFrameDraw`); any
    /// other file is walked whole first.
    convenience init(data: Data, options: DecodingOptions) throws {
        var firstFrame: APNGFirstFrameDraw?
        // Frame 0 drawn beside the walk is 8-bit: deep sessions walk first.
        let strategy =
            options.pixelFormat.channelDepth == .eight ? options.tuning.apngOpenStrategy(byteCount: data.count) : .wholeIndex
        let index = try data.withUnsafeBytes { raw throws(AnimatedImageError) in
            guard strategy == .firstFrameBesideWalk else {
                return try APNGChunkWalker.index(raw, limits: options.limits, keepsCutFirstFrame: options.showsPartialFirstFrame)
            }
            return try APNGChunkWalker.index(
                raw, limits: options.limits,
                keepsCutFirstFrame: options.showsPartialFirstFrame
            ) { provisional in
                firstFrame = APNGFirstFrameDraw(provisional, file: raw, limits: options.limits)
            }
        }
        try self.init(data: data, options: options, index: index, firstFrame: firstFrame)
    }

    /// A session over `data` from its index: read by the open, or by another session
    /// (`sessionMaker()`, with no frame drawn).
    init(data: Data, options: DecodingOptions, index: APNGIndex, firstFrame: APNGFirstFrameDraw?) throws {
        let canvas = index.header.size
        let format = index.format
        // Everything this session may hold (`APNGSessionBudget`, as the incremental session
        // counts it). One canvas first: it also proves the canvas's RGBA byte count fits an
        // Int, so the frames' areas (inside the canvas) do too.
        try options.limits.checkCanvases(canvas, count: options.pixelFormat.channelDepth.bytesPerChannel, format: format)
        var budget = APNGSessionBudget()
        for f in index.frames { budget.add(f, index: index) }
        try budget.check(canvas: canvas, format: format, options: options)

        var info = AnimationInfo(
            format: format, canvasSize: canvas, frameDurations: index.frames.map(\.duration),
            loopCount: index.numPlays.map { $0 == 0 ? .infinite : .plays(Int($0)) } ?? .once,
            storedLoopValue: index.numPlays.map(Int.init),
            hasAlpha: APNGFrameSource.hasAlpha(index),
            truncation: index.truncation, warnings: index.colorWarnings, color: index.color, metadata: index.metadata,
            bitsPerChannel: index.header.bitDepth == 16 ? 16 : 8)
        colorTransform = ColorManagement.prepare(&info, options: options, precedence: .rule(for: .png))
        self.info = info
        self.options = options
        self.index = index
        self.data = data
        let depth = options.pixelFormat.channelDepth
        largestFrameBytes = index.frames.lazy.map { $0.rect.width * $0.rect.height * depth.bytesPerPixel }.max() ?? 0
        let opaque = !index.header.hasAlphaChannel && index.transparency == nil
        let placements = index.frames.map { FramePlacement(rect: $0.rect, dispose: $0.dispose, blend: $0.blend, isOpaque: opaque) }
        // The canvas is allocated by the first decode (reading `info` allocates no pixels),
        // unless the open drew frame 0 on it.
        var state = APNGDecodeState(
            compositor: Compositor(size: PixelSize(width: 0, height: 0), holdsDrawnAreaOnly: false, channelDepth: depth),
            keyFrames: KeyFrameTable(placements, canvasSize: canvas))
        if let firstFrame, firstFrame.drawsFirstFrame(of: index) {
            drewFirstFrameAtOpen = state.adoptFirstFrame(firstFrame.canvas)
        } else {
            drewFirstFrameAtOpen = false
        }
        state.compositor.colorTransform = colorTransform
        self.state = Locked(state)
    }

    var retainedByteCount: Int { state.withLock { $0.byteCount } }

    /// Why the file's animation chunks were ignored, if they were.
    var fallbackReason: String? { index.fallbackReason }

    var decodedFrameCount: Int { state.withLock { $0.decodedFrameCount } }

    func restartFrame(for index: Int) -> Int { state.withLock { $0.keyFrames.restartFrame(for: index) } }

    func decodeFrame(at frameIndex: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(frameIndex)
        let size = outputSize, format = options.pixelFormat
        try state.withLock { s in
            s.compositor.colorTransform = colorTransform
            s.prepareCanvas(size: info.canvasSize)
            try s.renderFrame(frameIndex, input: self, into: &buffer, size: size, format: format)
        }
    }

    /// Runs `body` with a drawer over the file's bytes (the drawing code the incremental
    /// source shares).
    func withDrawer<R>(_ body: (APNGFrameDrawer) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { file in
            try body(
                APNGFrameDrawer(
                    index: index, file: file, format: info.format, limits: options.limits, depth: options.pixelFormat.channelDepth))
        }
    }

    /// Says that frame `i` failed: a libpng failure on frame 0, else the truncation of the
    /// animation after the `i` frames before it.
    func frameError(_ error: any Error, frame i: Int) -> any Error {
        APNGFrameDrawer.frameError(error, frame: i, format: info.format)
    }

    /// Decodes frame `i`, whose rectangle is the canvas, straight into `pixels`.
    func decodeFull(_ i: Int, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int, stream: inout PNGFrameStream) throws {
        try withDrawer { try $0.decodeFull(i, into: pixels, bytesPerRow: bytesPerRow, stream: &stream) }
    }

    /// Decodes frame `i` and composites it onto the canvas.
    func draw(_ i: Int, state s: inout APNGDecodeState) throws {
        try withDrawer { try $0.draw(i, state: &s) }
    }

    static func hasAlpha(_ index: APNGIndex) -> Bool {
        if index.header.hasAlphaChannel || index.transparency != nil { return true }
        let full = PixelRect(x: 0, y: 0, width: index.header.width, height: index.header.height)
        // Opaque only when frame 0 fills the canvas and nothing clears part of it later.
        guard index.frames.first?.rect == full else { return true }
        return index.frames.contains { $0.dispose == .background }
    }
}

extension APNGFrameSource: APNGFrameDrawing {}
