import Zoetrope

/// Frame 0 of a big PNG, drawn while opening walks the rest of the file
/// (`APNGChunkWalker.index(_:limits:keepsCutFirstFrame:alongsideWalk:)`); the source then
/// starts from that canvas (`APNGDecodeState.adoptFirstFrame`).
struct APNGFirstFrameDraw {
    /// The index the draw used: the file as if it ended after frame 0.
    let provisional: APNGIndex
    /// The canvas showing frame 0, its disposal pending.
    let canvas: Compositor

    /// Draws frame 0 of `provisional` from `file` onto a fresh canvas. Nil when the canvas,
    /// the frame's stream and its rows do not fit `limits` (the whole-file budget reserves
    /// more) or the frame fails (the one-frame path then draws it and reports why).
    init?(_ provisional: APNGIndex, file: UnsafeRawBufferPointer, limits: Limits) {
        guard let frame = provisional.frames.first else { return nil }
        let canvasSize = provisional.header.size
        var budget = AllocationBudget(limits: limits, format: provisional.format)
        budget.reserve(canvasSize.rgbaByteCount)
        budget.reserve(PNGFrameStream.byteCount(for: frame, index: provisional))
        budget.reserve(provisional.header.rowBufferBytes(width: frame.rect.width))
        guard (try? budget.check()) != nil else { return nil }
        let opaque = !provisional.header.hasAlphaChannel && provisional.transparency == nil
        let placement = FramePlacement(rect: frame.rect, dispose: frame.dispose, blend: frame.blend, isOpaque: opaque)
        var state = APNGDecodeState(
            compositor: Compositor(size: canvasSize, holdsDrawnAreaOnly: true),
            keyFrames: KeyFrameTable([placement], canvasSize: canvasSize))
        let drawer = APNGFrameDrawer(index: provisional, file: file, format: provisional.format, limits: limits)
        guard (try? state.render(0, input: drawer)) != nil, state.shownFrame == 0 else { return nil }
        self.provisional = provisional
        canvas = state.compositor
    }

    /// Whether `index` (the whole file's) draws frame 0 as the provisional index did: the
    /// same header, palette, transparency and frame 0 record (a later break can turn the
    /// animation into its still image).
    func drawsFirstFrame(of index: APNGIndex) -> Bool {
        index.header == provisional.header && index.palette == provisional.palette
            && index.transparency == provisional.transparency && index.format == provisional.format
            && index.frames.first == provisional.frames.first
    }
}

extension APNGDecodeState {
    /// Starts from `canvas`, which shows frame 0 drawn whole (`APNGFirstFrameDraw`): the
    /// state of a fresh source after drawing frame 0, without drawing it again. Returns
    /// false, changing nothing, when this state has drawn already.
    mutating func adoptFirstFrame(_ canvas: Compositor) -> Bool {
        guard decodedFrameCount == 0 else { return false }
        compositor = canvas
        shownFrame = 0
        decodedFrameCount = 1
        return true
    }
}
