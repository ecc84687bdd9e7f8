extension CanvasRendering {
    /// Prepares the canvas for drawing frame `target` from a payload decoded ahead: true when
    /// the canvas shows the frame before it (or `target` restarts from a clean canvas), after
    /// applying the plan's clearing. False when more frames would have to be drawn first;
    /// then the caller renders `target` the usual way.
    package mutating func beginPayloadFrame(_ target: Int) -> Bool {
        let plan = keyFrames.plan(to: target, from: shownFrame)
        guard plan.frames == target..<(target + 1) else { return false }
        if plan.clearsCanvas { compositor.reset() }
        shownFrame = nil
        return true
    }

    /// Records that the canvas now shows `target`, drawn from its payload.
    package mutating func endPayloadFrame(_ target: Int) {
        shownFrame = target
        decodedFrameCount += 1
    }

    /// Whether `target` would be decoded straight into a `size`/`format` buffer without the
    /// canvas (the rule `renderFrame` applies): its payload then becomes the frame.
    package func deliversDirectly(_ target: Int, size: PixelSize, format: PixelFormat) -> Bool {
        decodesFullFrames && size == compositor.canvasSize && format == compositor.canvas.format
            && shownFrame != target && keyFrames.decodesDirectly(target)
    }

    /// Delivers frame `target` from straight RGBA `pixels` at the compositor's depth decoded
    /// ahead (the frame's rectangle, rows `width × bytesPerPixel` apart), as `renderFrame` would deliver it: a frame that
    /// `deliversDirectly` hands its pixels over as the caller's buffer (and takes the
    /// buffer's old storage back in `pixels` for reuse); any other is drawn by `draw` onto
    /// the canvas, which is copied out. When the canvas is not where the payload needs it,
    /// `render` delivers the frame the usual way instead.
    package mutating func deliverPayload(
        _ target: Int, pixels: inout [UInt8], into buffer: inout PixelBuffer,
        size: PixelSize, format: PixelFormat,
        render: (inout Self, inout PixelBuffer) throws -> Void,
        draw: (inout Self, UnsafeRawBufferPointer) -> Void
    ) rethrows {
        if deliversDirectly(target, size: size, format: format) {
            shownFrame = nil
            buffer.format = compositor.canvas.format
            buffer.reshape(width: size.width, height: size.height)
            swap(&buffer.bytes, &pixels)
            if let transform = compositor.colorTransform { buffer.applyColorTransform(transform) }
            decodedFrameCount += 1
            return
        }
        guard beginPayloadFrame(target) else {
            try render(&self, &buffer)
            return
        }
        pixels.withUnsafeBytes { draw(&self, $0) }
        endPayloadFrame(target)
        compositor.copyCanvas(into: &buffer, size: size, format: format)
    }
}
