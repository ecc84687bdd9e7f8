import Zoetrope

/// Bulk runs: each image's LZW data decodes to palette indices on a worker (its own giflib
/// handle, positioned at the image's descriptor); disposal and drawing stay in order.
extension GIFFrameSource: ParallelFrameDecoding {
    var maxPayloadByteCount: Int { maxPayloadIndexCount + 256 * 4 }

    /// The most palette indices one payload holds: the largest image.
    var maxPayloadIndexCount: Int { largestImagePixels }

    func makePayloadContext() -> GIFPayloadContext { GIFPayloadContext() }

    func decodePayload(_ i: Int, context: inout GIFPayloadContext, storage: inout [UInt8]) -> GIFFramePayload? {
        let record = index.frames[i]
        let canvas = PixelRect(x: 0, y: 0, width: info.canvasSize.width, height: info.canvasSize.height)
        let clip = record.rect.intersection(canvas)
        let width = record.rect.width
        guard !clip.isEmpty else { return GIFFramePayload(indices: [], palette: [], rows: 0) }
        // Interlaced rows arrive out of order, so all of them are read; otherwise reading
        // stops at the last row on the canvas, as the one-frame path does.
        let rows = record.interlaced ? record.rect.height : min(record.rect.height, clip.y + clip.height - record.rect.y)
        let count = width * record.rect.height
        var indices = storage
        storage = []
        indices.resizeForPayload(count, capacity: maxPayloadIndexCount)
        var palette = [UInt32](repeating: 0, count: 256)
        let context = context
        let decoded: Bool = data.withUnsafeBytes { bytes in
            let handle: GIFLibHandle
            if let kept = context.handle {
                kept.rebind(bytes)
                handle = kept
            } else {
                guard let made = try? GIFLibHandle(bytes: bytes) else { return false }
                handle = made
                context.handle = made
            }
            guard (try? handle.beginImage(at: record.descriptorOffset)) != nil else {
                context.handle = nil
                return false
            }
            palette.withUnsafeMutableBytes { GIFDecodeState.fillPalette(handle.colorMap, into: $0) }
            return indices.withUnsafeMutableBufferPointer { out in
                // Rows in file order are contiguous here: one giflib call for all of them.
                if !record.interlaced {
                    guard handle.readLine(out.baseAddress!, count: rows * width) == nil else {
                        context.handle = nil
                        return false
                    }
                    return true
                }
                var order = GIFRowOrder(height: record.rect.height, interlaced: record.interlaced)
                for _ in 0..<rows {
                    let y = order.next()
                    // Data that stops early or is corrupt: the one-frame path handles it.
                    if handle.readLine(out.baseAddress! + y * width, count: width) != nil {
                        context.handle = nil
                        return false
                    }
                }
                return true
            }
        }
        guard decoded else {
            storage = indices
            return nil
        }
        return GIFFramePayload(
            indices: indices, palette: palette,
            rows: record.interlaced ? record.rect.height : rows)
    }

    func deliverFrame(_ i: Int, payload: consuming GIFFramePayload, into buffer: inout PixelBuffer) throws -> [UInt8] {
        let record = index.frames[i]
        let p = payload
        try deliver(i, into: &buffer) { state in
            guard state.beginPayloadFrame(i) else {
                try data.withUnsafeBytes { bytes in try state.render(i, input: (bytes, index.frames)) }
                return
            }
            state.draw(p, record: record)
            state.endPayloadFrame(i)
        }
        return p.indices
    }
}

extension GIFDecodeState {
    /// Disposes the previous frame and draws a payload decoded ahead, exactly as
    /// `composite` draws the same frame from its LZW data.
    mutating func draw(_ payload: GIFFramePayload, record: GIFFrameRecord) {
        let clip = compositor.beginFrame(rect: record.rect, dispose: record.disposal)
        guard !clip.isEmpty else { return }
        let width = record.rect.width
        let transparent = record.transparentIndex
        compositor.withPixels(in: clip) { canvas, stride in
            payload.indices.withUnsafeBufferPointer { indices in
                payload.palette.withUnsafeBufferPointer { lut in
                    let top = max(clip.y, record.rect.y)
                    let bottom = min(clip.y + clip.height, record.rect.y + payload.rows)
                    guard top < bottom else { return }
                    let from = clip.x - record.rect.x
                    for cy in top..<bottom {
                        let src = indices.baseAddress! + (cy - record.rect.y) * width + from
                        GIFDecodeState.drawRow(
                            src, to: canvas + (cy - clip.y) * stride,
                            count: clip.width, lut: lut.baseAddress!, transparent: transparent)
                    }
                }
            }
        }
    }
}
