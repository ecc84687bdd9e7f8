import CWebP
import Zoetrope

/// A first frame whose image chunk has not all arrived (`DecodingOptions.showsPartialFirstFrame`),
/// decoded with libwebp's incremental decoder over the bytes that have: the rows it has
/// finished are drawn (libwebp's `last_y`), the rest of the canvas stays transparent.
enum WebPPartialFrame {
    /// Decodes `record` (its payload the bytes received of its image chunks) onto a
    /// transparent `canvas` and delivers it at the options' size and format.
    static func decode(
        _ record: WebPFrameRecord, file: UnsafeRawBufferPointer, canvas: PixelSize,
        options: DecodingOptions, colorTransform: (any ColorTransform)? = nil,
        into buffer: inout PixelBuffer
    ) throws {
        let rect = record.rect
        guard record.payloadOffset >= 0, record.payloadCount > 0, record.payloadOffset + record.payloadCount <= file.count,
            rect.width > 0, rect.height > 0
        else {
            throw AnimatedImageError.invalidData(format: .webp, reason: "frame 0: its image data lies outside the file")
        }
        let rowBytes = rect.width * 4
        var pixels = [UInt8](repeating: 0, count: rowBytes * rect.height)
        var rows = 0
        try pixels.withUnsafeMutableBytes { out in
            guard
                let decoder = WebPINewRGB(
                    MODE_RGBA, out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count,
                    Int32(rowBytes))
            else {
                throw AnimatedImageError.codecFailure(format: .webp, library: "libwebp", message: "out of memory for the incremental decoder")
            }
            defer { WebPIDelete(decoder) }
            let payload = file.baseAddress!.advanced(by: record.payloadOffset).assumingMemoryBound(to: UInt8.self)
            // Data libwebp cannot read yet (or at all) shows nothing: the whole frame, once
            // it has arrived, says what is wrong with it.
            let status = WebPIUpdate(decoder, payload, record.payloadCount)
            guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else { return }
            var lastY: Int32 = 0, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
            if WebPIDecGetRGB(decoder, &lastY, &width, &height, &stride) != nil, Int(width) == rect.width,
                Int(height) == rect.height
            {
                rows = max(0, min(Int(lastY), rect.height))
            }
        }
        // Only the finished rows: whatever libwebp left below them is not the picture yet.
        pixels.withUnsafeMutableBytes { raw in
            let rest = raw.count - rows * rowBytes
            if rest > 0 { (raw.baseAddress! + rows * rowBytes).initializeMemory(as: UInt8.self, repeating: 0, count: rest) }
        }
        var compositor = Compositor(size: canvas, colorTransform: colorTransform, holdsDrawnAreaOnly: true)
        pixels.withUnsafeBytes { compositor.draw($0, bytesPerRow: rowBytes, rect: rect, blend: .source) }
        compositor.copyCanvas(into: &buffer, size: options.outputSize(forCanvas: canvas), format: options.pixelFormat)
    }
}
