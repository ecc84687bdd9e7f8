/// The state of a compositing decoder (canvas, which frame it shows, the key-frame table)
/// plus how to draw one frame: adopt it, and `render` and `renderFrame` bring the canvas to
/// any frame by the cheapest plan `KeyFrameTable` finds, with the full-canvas fast path.
///
/// A coder's `FrameSource` keeps a value of its adopting type behind its lock and calls
/// `renderFrame(_:input:into:size:format:)` from `decodeFrame(at:into:)`:
///
/// ```swift
/// try state.withLock { s in
///     try data.withUnsafeBytes { file in
///         try s.renderFrame(index, input: file, into: &buffer, size: outputSize, format: options.pixelFormat)
///     }
/// }
/// ```
package protocol CanvasRendering {
    /// What `drawFrame` reads besides the state: usually the file's bytes and its index.
    associatedtype Input
    /// The canvas, with what disposal still has to undo.
    var compositor: Compositor { get set }
    /// The frame the canvas shows, its disposal still pending; nil when unknown (nothing
    /// drawn yet, a failure, or a frame decoded past the canvas).
    var shownFrame: Int? { get set }
    /// The restart-point rule for this image.
    var keyFrames: KeyFrameTable { get set }
    /// Frames drawn or decoded so far, for tests that check what a seek costs.
    var decodedFrameCount: Int { get set }
    /// Whether `decodeFullFrame` is implemented (the default is no).
    var decodesFullFrames: Bool { get }

    /// Applies the previous frame's disposal and draws frame `index` onto the canvas
    /// (`compositor.beginFrame`, then the pixels). Returns `.incomplete` when the frame's
    /// data stopped early and left part of its rectangle undrawn.
    mutating func drawFrame(_ index: Int, input: Input) throws -> FrameDrawResult

    /// Decodes frame `index`, whose rectangle is the whole canvas, as straight-alpha RGBA
    /// rows at the compositor's `channelDepth`, `bytesPerRow` apart at `pixels`, exactly as `drawFrame` would leave the canvas
    /// when `KeyFrameTable.decodesDirectly(index)` holds.
    mutating func decodeFullFrame(_ index: Int, input: Input, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int) throws
}

/// What drawing one frame did.
package enum FrameDrawResult: Hashable, Sendable {
    /// Every pixel the frame's placement promised was drawn.
    case complete
    /// The frame's data stopped early: part of its rectangle still shows what was under it.
    case incomplete
}

extension CanvasRendering {
    /// No full-frame decoding: every frame goes through the canvas.
    package var decodesFullFrames: Bool { false }

    /// The default: never called, as `decodesFullFrames` is false.
    package mutating func decodeFullFrame(
        _ index: Int, input: Input, into pixels: UnsafeMutableRawPointer,
        bytesPerRow: Int
    ) throws {
        preconditionFailure("decodeFullFrame called on a state whose decodesFullFrames is false")
    }

    /// Makes `compositor` a transparent canvas of `size` that holds pixels only where frames
    /// draw (`Compositor(size:colorTransform:holdsDrawnAreaOnly:)`, keeping its colour
    /// transform), covering the frames `keyFrames` has so far. A canvas of that size is kept,
    /// grown to the frames added since.
    package mutating func prepareCanvas(size: PixelSize) {
        if compositor.canvasSize != size {
            compositor = Compositor(
                size: size, colorTransform: compositor.colorTransform, holdsDrawnAreaOnly: true, channelDepth: compositor.channelDepth)
            shownFrame = nil
        }
        compositor.reserve(keyFrames.drawnArea)
    }

    /// Brings the canvas to frame `target` by `keyFrames.plan(to:from:)`. On a thrown error
    /// the canvas shows no known frame and the next call rebuilds it.
    package mutating func render(_ target: Int, input: Input) throws {
        let plan = keyFrames.plan(to: target, from: shownFrame)
        guard !plan.frames.isEmpty else { return }
        if plan.clearsCanvas { compositor.reset() }
        shownFrame = nil
        for i in plan.frames {
            let result = try drawFrame(i, input: input)
            decodedFrameCount += 1
            if result == .incomplete, keyFrames.markIncomplete(i), plan.restarts, i == plan.frames.lowerBound,
                !plan.clearsCanvas
            {
                // The key frame was chosen for covering the canvas, which it turned out not
                // to do: its holes show a stale canvas. Plan again without it.
                return try render(target, input: input)
            }
        }
        shownFrame = target
    }

    /// Delivers frame `target` into `output` at `size` in `format`. A frame
    /// `KeyFrameTable.decodesDirectly` allows is decoded straight into `output` when that is
    /// the full canvas in straight alpha at the canvas's depth (no canvas, no copy); any other goes through
    /// `render` and a copy out of the canvas. Either way the frame passes through
    /// `compositor.colorTransform` when there is one.
    package mutating func renderFrame(
        _ target: Int, input: Input, into output: inout PixelBuffer,
        size: PixelSize, format: PixelFormat
    ) throws {
        let canvasSize = compositor.canvasSize, canvasFormat = compositor.canvas.format
        if decodesFullFrames, size == canvasSize, format == canvasFormat, keyFrames.decodesDirectly(target),
            shownFrame == target
        {
            // The canvas shows a frame that decodes straight into a buffer (drawn before this
            // call, as an open that draws frame 0 does): copied out, the canvas is needed by no
            // later frame, whose restart frame follows this one, so a drawn-area canvas is freed.
            compositor.copyCanvas(into: &output, size: size, format: format)
            if compositor.releasePixels() { shownFrame = nil }
            return
        }
        if decodesFullFrames, size == canvasSize, format == canvasFormat, shownFrame != target,
            keyFrames.decodesDirectly(target)
        {
            shownFrame = nil
            output.format = canvasFormat
            output.reshape(width: canvasSize.width, height: canvasSize.height)
            let stride = output.bytesPerRow
            try output.bytes.withUnsafeMutableBytes { raw in
                try decodeFullFrame(target, input: input, into: raw.baseAddress!, bytesPerRow: stride)
            }
            if let transform = compositor.colorTransform { output.applyColorTransform(transform) }
            decodedFrameCount += 1
            return
        }
        try render(target, input: input)
        compositor.copyCanvas(into: &output, size: size, format: format)
    }
}
