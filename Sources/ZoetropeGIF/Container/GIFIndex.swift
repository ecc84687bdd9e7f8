import Zoetrope

/// The result of the cheap first pass over a GIF: screen, canvas, loop extension and one
/// record per image, so frame count and durations are known before any pixel is decoded.
struct GIFIndex: Sendable {
    /// The logical screen as stored.
    var screenSize: PixelSize
    /// The screen grown to hold the first frame (later frames are clipped to it).
    var canvasSize: PixelSize
    /// One record per image descriptor that is complete in the file.
    var frames: [GIFFrameRecord]
    /// The NETSCAPE2.0 / ANIMEXTS1.0 loop count as stored, or nil without such a block.
    var storedLoopCount: Int?
    /// What stopped the pass before the trailer, if anything.
    var truncation: AnimatedImageError?
    /// The profile of the first complete `ICCRGBG1` application extension.
    var iccProfile: ICCProfile? = nil
    /// What the file gets wrong that decoding works around (see `AnimationInfo.warnings`).
    var warnings: [String] = []
    /// Set when the only frame is a first frame cut inside its data
    /// (`DecodingOptions.showsPartialFirstFrame`): where its complete sub-blocks end.
    var partialFirstFrameEnd: Int?

    /// Total plays: no loop block → 1, N → N + 1, 0 → forever.
    var loopCount: LoopCount {
        guard let n = storedLoopCount else { return .once }
        return n == 0 ? .infinite : .plays(n + 1)
    }

    var canvasRect: PixelRect { PixelRect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height) }

    /// Whether frames may show transparency: a first frame that leaves part of the canvas
    /// uncovered, any transparent index, any "dispose to background". nil when none of these
    /// holds (LZW data that stops early can still leave holes, which only decoding shows).
    var hasAlpha: Bool? {
        guard let first = frames.first else { return true }
        if first.rect.intersection(canvasRect) != canvasRect { return true }
        if frames.contains(where: { $0.transparentIndex != nil || $0.disposal == .background }) { return true }
        return nil
    }

    /// Each frame's placement for the shared restart-point rule (`KeyFrameTable`).
    var placements: [FramePlacement] { frames.map(\.placement) }
}
