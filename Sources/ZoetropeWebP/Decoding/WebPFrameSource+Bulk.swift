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
        return fillPayload(count: rowBytes * frame.rect.height, storage: &storage) { dst in
            try data.withUnsafeBytes { file in
                let payload = try WebPDecodeState.payload(of: frame, index: i, in: file)
                try WebPBitstreamDecoder.decode(
                    payload, width: frame.rect.width, height: frame.rect.height,
                    into: dst.baseAddress!, bytesPerRow: rowBytes, frame: i)
            }
        }
    }

    func deliverFrame(_ i: Int, payload: consuming [UInt8], into buffer: inout PixelBuffer) throws -> [UInt8] {
        let size = outputSize, format = options.pixelFormat
        var pixels = payload
        try state.withLock { s in
            s.ensureCanvas()
            try s.deliverPayload(i, pixels: &pixels, into: &buffer, size: size, format: format) { s, buffer in
                try data.withUnsafeBytes { (file: UnsafeRawBufferPointer) in
                    try s.renderFrame(i, input: (file, frames), into: &buffer, size: size, format: format)
                }
            } draw: { s, pixels in
                s.drawDecoded(i, pixels: pixels, frames: frames)
            }
        }
        return pixels
    }
}
