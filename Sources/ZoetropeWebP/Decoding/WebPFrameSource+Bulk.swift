import Zoetrope

/// Bulk runs: each frame's VP8/VP8L bitstream decodes to RGBA on a worker (libwebp's still
/// decoder, one thread each); disposal and libwebp's blend stay in order.
extension WebPFrameSource: ParallelFrameDecoding {
    var maxPayloadByteCount: Int { largestFrameBytes }

    func makePayloadContext() {}

    func decodePayload(_ i: Int, context: inout Void, storage: inout [UInt8]) -> [UInt8]? {
        let frame = frames[i]
        let canvas = PixelRect(x: 0, y: 0, width: info.canvasSize.width, height: info.canvasSize.height)
        // A frame reaching outside the canvas is an error the one-frame path reports.
        guard frame.rect.intersection(canvas) == frame.rect else { return nil }
        let rowBytes = frame.rect.width * 4
        var pixels = storage
        storage = []
        pixels.resizeForPayload(rowBytes * frame.rect.height, capacity: maxPayloadByteCount)
        let ok: Bool = data.withUnsafeBytes { file in
            pixels.withUnsafeMutableBytes { dst in
                guard let payload = try? WebPDecodeState.payload(of: frame, index: i, in: file) else { return false }
                do {
                    try WebPBitstreamDecoder.decode(payload, width: frame.rect.width, height: frame.rect.height,
                                                    into: dst.baseAddress!, bytesPerRow: rowBytes, frame: i)
                    return true
                } catch {
                    return false
                }
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
        var pixels = payload
        try state.withLock { s in
            s.ensureCanvas()
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
                try data.withUnsafeBytes { (file: UnsafeRawBufferPointer) in
                    try s.renderFrame(i, input: (file, frames), into: &buffer, size: size, format: format)
                }
                return
            }
            pixels.withUnsafeBytes { s.drawDecoded(i, pixels: $0, frames: frames) }
            s.endPayloadFrame(i)
            s.compositor.copyCanvas(into: &buffer, size: size, format: format)
        }
        return pixels
    }
}
