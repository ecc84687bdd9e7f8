import CWebP
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// libwebp's still-image encoder as `WebPStreamWriter` calls it: one frame rectangle at a
/// time, lossless or lossy, into the image chunks an `ANMF` chunk holds.
struct WebPFrameEncoder {
    /// Lossless settings; `exact` keeps the colour of transparent pixels.
    var lossless: WebPConfig
    /// Lossy settings (VP8 with an alpha plane).
    var lossy: WebPConfig
    /// Per-channel difference lossy encoding treats as unchanged (from the quality).
    var lossyTolerance: Int
    /// A lossless rectangle that blending can rebuild is encoded blended when at least the
    /// lower bound of its pixels are unchanged, unblended below the upper bound (both in
    /// between); see `WebPEncoder` for the measurements behind the bounds.
    var blendFromUnchangedShare: Range<Double>

    /// Encodes `picture` (a canvas view or a copy; freed here) and returns its image chunks.
    /// A blended lossless frame is encoded without `exact`: its transparent pixels all
    /// show the canvas, so libwebp may give them whatever colour codes smallest.
    func encode(
        _ picture: inout WebPPicture, lossless isLossless: Bool, forBlend: Bool,
        index: Int
    ) throws -> (data: [UInt8], hasAlpha: Bool) {
        var config = isLossless ? lossless : lossy
        if isLossless && forBlend { config.exact = 0 }
        var memory = WebPMemoryWriter()
        WebPMemoryWriterInit(&memory)
        defer {
            WebPMemoryWriterClear(&memory)
            WebPPictureFree(&picture)
        }
        let ok = withUnsafeMutablePointer(to: &memory) { m in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(m)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0 else {
            throw WebPStreamWriter.failure("frame \(index): encoding failed (VP8 error \(picture.error_code.rawValue))")
        }
        guard let chunks = WebPContainer.imageChunks(ofStill: UnsafeRawBufferPointer(start: memory.mem, count: memory.size)) else {
            throw WebPStreamWriter.failure("frame \(index): libwebp wrote no image chunk")
        }
        return chunks
    }

    /// A still WebP file of the whole `canvas`: lossless or lossy as `mode` says, the
    /// smaller of the two for mixed.
    func encodeStill(_ canvas: WebPCanvas, mode: WebPStreamWriter.Mode) throws -> Data {
        var best: Data?
        for isLossless in [true, false] where mode == .mixed || (mode == .lossless) == isLossless {
            var config = isLossless ? lossless : lossy
            var memory = WebPMemoryWriter()
            WebPMemoryWriterInit(&memory)
            var view = canvas.view(canvas.fullRect)
            defer {
                WebPMemoryWriterClear(&memory)
                WebPPictureFree(&view)  // libwebp's lossy conversion buffers; the pixels are the canvas's
            }
            let ok = withUnsafeMutablePointer(to: &memory) { m in
                view.writer = WebPMemoryWrite
                view.custom_ptr = UnsafeMutableRawPointer(m)
                return WebPEncode(&config, &view)
            }
            guard ok != 0, let mem = memory.mem else {
                throw WebPStreamWriter.failure("encoding the still image failed (VP8 error \(view.error_code.rawValue))")
            }
            if best == nil || memory.size < best!.count { best = Data(bytes: mem, count: memory.size) }
        }
        return best!
    }

    /// A copy of `rect` of `canvas` that libwebp may change (lossy rectangles are rewritten).
    func copy(_ canvas: WebPCanvas, _ rect: PixelRect) throws -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw WebPStreamWriter.failure("picture ABI mismatch")
        }
        picture.use_argb = 1
        picture.width = Int32(rect.width)
        picture.height = Int32(rect.height)
        guard WebPPictureAlloc(&picture) != 0 else { throw WebPStreamWriter.failure("out of memory for a \(rect) frame") }
        let stride = Int(picture.argb_stride)
        for y in 0..<rect.height {
            (picture.argb + y * stride).update(from: canvas.pixels + (rect.y + y) * canvas.width + rect.x, count: rect.width)
        }
        return picture
    }
}
