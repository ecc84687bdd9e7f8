/// The restart-point rule every compositing format shares: which frames decoding can start
/// from on a fully transparent canvas, and the cheapest way to bring a canvas to frame *i*.
///
/// A frame is a **key frame** when the canvas it leaves, and everything after it, depends
/// on no earlier frame, so decoding may start there from a transparent canvas and give the
/// same pixels as decoding from the first frame. That is the case when
///
/// - the canvas before it is fully transparent: it is the first frame; or the frame before
///   it was disposed to background and either covered the whole canvas or itself started on
///   a transparent canvas; or the frame before it was disposed to previous (or drew nothing
///   and left the canvas as it was) and started on a transparent canvas; or
/// - it covers the whole canvas, replacing every pixel (blend source, or opaque pixels), and
///   is not disposed to previous (which would bring back the canvas under it).
///
/// Without "dispose to previous" and empty frames this is exactly libwebp's rule
/// (`anim_decode.c`, `IsKeyFrame`); the rest extends it to GIF and APNG with the browsers'
/// compositing: background clears to transparent black, previous restores the canvas as it
/// was before the frame.
package struct KeyFrameTable: Hashable, Sendable {
    /// The canvas the frames are composited onto.
    package let canvasSize: PixelSize
    /// Key frames are drawn by replacing their rectangle, whatever their blend mode, as
    /// libwebp's animation decoder draws them. False for GIF and APNG.
    package let keyFramesReplace: Bool
    /// One placement per frame, as given (with `isOpaque` cleared by `markIncomplete`).
    package private(set) var placements: [FramePlacement]
    /// The smallest rectangle holding every frame's rectangle inside the canvas: where a
    /// compositor that holds the drawn area only (`Compositor.reserve`) needs pixels.
    package private(set) var drawnArea = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// Per frame: the canvas before it (after the previous frame's disposal) is fully transparent.
    private var startsClear: [Bool] = []
    /// Per frame: the nearest key frame at or before it.
    private var keyFrameAtOrBefore: [Int] = []

    /// Applies the rule to `placements`, one per frame in order.
    package init(_ placements: [FramePlacement], canvasSize: PixelSize, keyFramesReplace: Bool = false) {
        self.canvasSize = canvasSize
        self.keyFramesReplace = keyFramesReplace
        self.placements = placements
        let canvas = self.canvas
        for p in placements { drawnArea = drawnArea.union(p.rect.intersection(canvas)) }
        recompute(from: 0)
    }

    /// The number of frames.
    package var count: Int { placements.count }

    /// Bytes the table holds, for a decoder's allocation budget.
    package static func byteCount(frames: Int) -> Int {
        frames * (MemoryLayout<FramePlacement>.stride + MemoryLayout<Bool>.stride + MemoryLayout<Int>.stride)
    }

    private var canvas: PixelRect { PixelRect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height) }

    /// Whether frame `i` replaces every pixel of the canvas, whatever was under it.
    package func coversCanvas(_ i: Int) -> Bool {
        let p = placements[i]
        return p.rect.intersection(canvas) == canvas && (p.isOpaque || p.blend == .source)
    }

    /// Whether the canvas is fully transparent before frame `i` is drawn.
    package func startsOnClearCanvas(_ i: Int) -> Bool { startsClear[i] }

    /// Whether decoding can start at frame `i` from a transparent canvas (see the type's rule).
    package func isKeyFrame(_ i: Int) -> Bool { keyFrameAtOrBefore[i] == i }

    /// The key frames, ascending (always starting with 0 when there is a frame).
    package var keyFrameIndices: [Int] { placements.indices.filter(isKeyFrame) }

    /// The nearest frame at or before `i` that needs no predecessor: where decoding
    /// restarts to reach `i`.
    package func restartFrame(for i: Int) -> Int { keyFrameAtOrBefore[i] }

    /// Whether frame `i` is drawn by replacing its rectangle: blend source, or a key frame
    /// when `keyFramesReplace`.
    package func drawsBySource(_ i: Int) -> Bool {
        placements[i].blend == .source || (keyFramesReplace && isKeyFrame(i))
    }

    /// The cheapest way to show frame `target` when the canvas shows `current` (nil: nothing
    /// known): continue from `current` when it is before `target`, else restart from
    /// `restartFrame(for: target)`, whichever draws fewer frames (continuing on a tie, as it
    /// needs no clearing).
    package func plan(to target: Int, from current: Int?) -> SeekPlan {
        if current == target { return SeekPlan(frames: target..<target, restarts: false, clearsCanvas: false) }
        let key = restartFrame(for: target)
        if let current, current < target, current + 1 >= key {
            return SeekPlan(frames: (current + 1)..<(target + 1), restarts: false, clearsCanvas: false)
        }
        // A key frame that overwrites every pixel needs no clearing first: a stale pending
        // disposal is applied under it and then drawn over. Unless it is disposed to
        // previous: it saves the canvas under it, which the next frame gets back, so that
        // canvas must be the transparent one decoding from the first frame has there.
        let overwrites =
            (coversCanvas(key) || (keyFramesReplace && placements[key].rect.intersection(canvas) == canvas))
            && placements[key].dispose != .previous
        return SeekPlan(frames: key..<(target + 1), restarts: true, clearsCanvas: !overwrites)
    }

    /// Whether frame `i` can be decoded straight into the caller's full-canvas buffer,
    /// skipping the canvas: it replaces every pixel of the canvas, so its pixels are the
    /// frame, and no later frame needs it on the canvas because the next frame is itself a
    /// key frame (or `i` is the last, after which a new play starts on a cleared canvas).
    package func decodesDirectly(_ i: Int) -> Bool {
        let p = placements[i]
        guard p.rect == canvas else { return false }
        guard coversCanvas(i) || (keyFramesReplace && isKeyFrame(i)) else { return false }
        return i + 1 == count || isKeyFrame(i + 1)
    }

    /// Records that frame `i` left part of its rectangle undrawn (its data stopped early), so
    /// it does not cover the canvas after all. Returns whether that changed the table.
    @discardableResult
    package mutating func markIncomplete(_ i: Int) -> Bool {
        guard placements[i].isOpaque else { return false }
        placements[i].isOpaque = false
        recompute(from: i)
        return true
    }

    /// Adds the placement of one more frame (an incremental source indexing the frames as
    /// they arrive): the rule is applied to the new frame only, so growing a table frame by
    /// frame costs the same as building it at once. A frame added after the one that was
    /// last may change `decodesDirectly` for that one (it is no longer last).
    package mutating func append(_ placement: FramePlacement) {
        placements.append(placement)
        drawnArea = drawnArea.union(placement.rect.intersection(canvas))
        startsClear.append(false)
        keyFrameAtOrBefore.append(0)
        recompute(from: placements.count - 1)
    }

    private mutating func recompute(from first: Int) {
        let n = placements.count
        if startsClear.count != n {
            startsClear = [Bool](repeating: false, count: n)
            keyFrameAtOrBefore = [Int](repeating: 0, count: n)
        }
        let canvas = self.canvas
        for i in first..<n {
            if i == 0 {
                startsClear[0] = true
            } else {
                let p = placements[i - 1], clip = p.rect.intersection(canvas)
                switch p.dispose {
                case .background: startsClear[i] = clip == canvas || startsClear[i - 1]
                case .previous: startsClear[i] = startsClear[i - 1]
                case .none: startsClear[i] = startsClear[i - 1] && clip.isEmpty
                }
            }
            let key = startsClear[i] || (coversCanvas(i) && placements[i].dispose != .previous)
            keyFrameAtOrBefore[i] = key || i == 0 ? i : keyFrameAtOrBefore[i - 1]
        }
    }
}
