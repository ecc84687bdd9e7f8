import Zoetrope

/// Bulk runs: each frame's PNG stream inflates and unfilters to RGBA on a worker; disposal
/// and blending stay in order. A frame that fails is left to the one-frame path, which
/// gives its typed error.
extension APNGFrameSource: ParallelFrameDecoding {
    var maxPayloadByteCount: Int { largestFrameBytes }

    func makePayloadContext() -> PNGFrameStream { PNGFrameStream() }

    func decodePayload(_ i: Int, context stream: inout PNGFrameStream, storage: inout [UInt8]) -> [UInt8]? {
        let frame = index.frames[i]
        let rowBytes = frame.rect.width * 4
        var pixels = storage
        storage = []
        pixels.resizeForPayload(rowBytes * frame.rect.height, capacity: maxPayloadByteCount)
        let fmt = info.format
        let ok: Bool = data.withUnsafeBytes { file in
            do {
                try stream.prepare(frame, index: index, file: file, format: fmt)
                try pixels.withUnsafeMutableBytes { dst in
                    let outcome = try stream.decode(frame, file: file, into: dst.baseAddress!, bytesPerRow: rowBytes,
                                                    limits: options.limits, format: fmt)
                    clearUndecoded(outcome, dst.baseAddress!, bytesPerRow: rowBytes, rect: frame.rect)
                }
                return true
            } catch {
                return false
            }
        }
        guard ok else {
            storage = pixels
            return nil
        }
        return pixels
    }

    func deliverFrame(_ i: Int, payload: consuming [UInt8], into buffer: inout PixelBuffer) throws -> [UInt8] {
        let size = outputSize, format = options.pixelFormat
        let frame = index.frames[i]
        var pixels = payload
        try state.withLock { s in
            if s.compositor.canvas.size != info.canvasSize {
                s.compositor = Compositor(size: info.canvasSize)
                s.shownFrame = nil
            }
            if s.deliversDirectly(i, size: size, format: format) {
                // The frame is the whole canvas: its payload becomes the caller's buffer.
                s.shownFrame = nil
                buffer.format = .rgba8
                buffer.reshape(width: size.width, height: size.height)
                swap(&buffer.bytes, &pixels)
                s.decodedFrameCount += 1
                return
            }
            guard s.beginPayloadFrame(i) else {
                try s.renderFrame(i, input: self, into: &buffer, size: size, format: format)
                return
            }
            let r = s.compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
            let rowBytes = r.width * 4
            pixels.withUnsafeBytes { s.compositor.draw($0, bytesPerRow: rowBytes, rect: r,
                                                       blend: frame.blend == .source || i == 0 ? .source : .over) }
            s.endPayloadFrame(i)
            s.compositor.copyCanvas(into: &buffer, size: size, format: format)
        }
        return pixels
    }
}
