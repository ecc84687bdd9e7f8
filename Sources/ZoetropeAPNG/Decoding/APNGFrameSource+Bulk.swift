import Zoetrope

/// Bulk runs: each frame's PNG stream inflates and unfilters to RGBA on a worker; disposal
/// and blending stay in order. A frame that fails is left to the one-frame path, which
/// gives its typed error.
extension APNGFrameSource: ParallelFrameDecoding {
    var maxPayloadByteCount: Int { largestFrameBytes }

    func makePayloadContext() -> PNGFrameStream { PNGFrameStream() }

    func decodePayload(_ i: Int, context stream: inout PNGFrameStream, storage: inout [UInt8]) -> [UInt8]? {
        // Frame 0 drawn at open: delivering it through `decodeFrame` costs a copy while
        // the canvas still shows it (and one frame's decode if something moved it since).
        if i == 0, drewFirstFrameAtOpen { return nil }
        let frame = index.frames[i]
        let rowBytes = frame.rect.width * options.pixelFormat.bytesPerPixel
        return fillPayload(count: rowBytes * frame.rect.height, storage: &storage) { dst in
            try withDrawer { drawer in
                try stream.prepare(frame, index: index, file: drawer.file, format: drawer.format)
                let outcome = try stream.decode(
                    frame, file: drawer.file, into: dst.baseAddress!, bytesPerRow: rowBytes,
                    limits: drawer.limits, format: drawer.format, depth: drawer.depth)
                drawer.clearUndecoded(outcome, dst.baseAddress!, bytesPerRow: rowBytes, rect: frame.rect)
            }
        }
    }

    func deliverFrame(_ i: Int, payload: consuming [UInt8], into buffer: inout PixelBuffer) throws -> [UInt8] {
        let size = outputSize, format = options.pixelFormat
        let frame = index.frames[i]
        var pixels = payload
        try state.withLock { s in
            s.compositor.colorTransform = colorTransform
            s.prepareCanvas(size: info.canvasSize)
            try s.deliverPayload(i, pixels: &pixels, into: &buffer, size: size, format: format) { s, buffer in
                try s.renderFrame(i, input: self, into: &buffer, size: size, format: format)
            } draw: { s, pixels in
                let r = s.compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
                s.compositor.draw(
                    pixels, bytesPerRow: r.width * s.compositor.channelDepth.bytesPerPixel, rect: r,
                    blend: frame.blend == .source || i == 0 ? .source : .over)
            }
        }
        return pixels
    }
}
