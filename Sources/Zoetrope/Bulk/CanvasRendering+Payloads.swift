extension CanvasRendering {
    /// Prepares the canvas for drawing frame `target` from a payload decoded ahead: true when
    /// the canvas shows the frame before it (or `target` restarts from a clean canvas), after
    /// applying the plan's clearing. False when more frames would have to be drawn first;
    /// then the caller renders `target` the usual way.
    public mutating func beginPayloadFrame(_ target: Int) -> Bool {
        let plan = keyFrames.plan(to: target, from: shownFrame)
        guard plan.frames == target..<(target + 1) else { return false }
        if plan.clearsCanvas { compositor.reset() }
        shownFrame = nil
        return true
    }

    /// Records that the canvas now shows `target`, drawn from its payload.
    public mutating func endPayloadFrame(_ target: Int) {
        shownFrame = target
        decodedFrameCount += 1
    }

    /// Whether `target` would be decoded straight into a `size`/`format` buffer without the
    /// canvas (the rule `renderFrame` applies): its payload then becomes the frame.
    public func deliversDirectly(_ target: Int, size: PixelSize, format: PixelFormat) -> Bool {
        decodesFullFrames && size == compositor.canvas.size && format.alphaMode == .straight
            && shownFrame != target && keyFrames.decodesDirectly(target)
    }
}
