import CWebP
import Foundation
import Zoetrope

/// Builds WebP files for tests with libwebp's own encoders: still images with the simple
/// encoding API, and animations frame by frame with libwebpmux (`WebPMuxPushFrame`), so
/// each frame's rectangle, blend and dispose modes are exactly what the test asks for.
enum WebPFixture {
    /// One frame of a hand-built animation.
    struct Frame {
        var pixels: PixelBuffer
        var x = 0
        var y = 0
        var durationMs = 100
        var blend = BlendMode.over
        var dispose = DisposeMode.none
        /// nil: lossless; else lossy at this quality.
        var lossyQuality: Int?
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A buffer filled with one colour.
    static func solid(_ width: Int, _ height: Int, _ rgba: (UInt8, UInt8, UInt8, UInt8)) -> PixelBuffer {
        var b = PixelBuffer(width: width, height: height)
        b.fill(PixelRect(x: 0, y: 0, width: width, height: height), with: rgba)
        return b
    }

    /// A still WebP file (`VP8L`, or `VP8 ` + `ALPH` in a `VP8X` file when lossy with alpha).
    static func still(_ pixels: PixelBuffer, lossyQuality: Int? = nil) throws -> Data {
        var out: UnsafeMutablePointer<UInt8>?
        let size = pixels.bytes.withUnsafeBytes { raw -> Int in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if let q = lossyQuality {
                return WebPEncodeRGBA(p, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bytesPerRow), Float(q), &out)
            }
            return WebPEncodeLosslessRGBA(p, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bytesPerRow), &out)
        }
        guard size > 0, let out else { throw Failure(description: "libwebp could not encode the still fixture") }
        defer { WebPFree(out) }
        return Data(bytes: out, count: size)
    }

    /// An animated WebP with exactly these frames. `metadata` adds ICCP, EXIF and XMP chunks.
    static func animation(
        canvas: PixelSize, frames: [Frame], loopCount: Int = 0,
        backgroundColor: UInt32 = 0xFFFF_FFFF, metadata: Bool = false
    ) throws -> Data {
        guard let mux = WebPNewInternal(WEBP_MUX_ABI_VERSION) else { throw Failure(description: "WebPNew failed") }
        defer { WebPMuxDelete(mux) }
        for frame in frames {
            let still = try still(frame.pixels, lossyQuality: frame.lossyQuality)
            let pushed = still.withUnsafeBytes { raw -> WebPMuxError in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
                info.x_offset = Int32(frame.x)
                info.y_offset = Int32(frame.y)
                info.duration = Int32(frame.durationMs)
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = frame.dispose == .background ? WEBP_MUX_DISPOSE_BACKGROUND : WEBP_MUX_DISPOSE_NONE
                info.blend_method = frame.blend == .source ? WEBP_MUX_NO_BLEND : WEBP_MUX_BLEND
                return WebPMuxPushFrame(mux, &info, 1)
            }
            guard pushed == WEBP_MUX_OK else { throw Failure(description: "WebPMuxPushFrame: \(pushed.rawValue)") }
        }
        var params = WebPMuxAnimParams(bgcolor: backgroundColor, loop_count: Int32(loopCount))
        guard WebPMuxSetAnimationParams(mux, &params) == WEBP_MUX_OK,
            WebPMuxSetCanvasSize(mux, Int32(canvas.width), Int32(canvas.height)) == WEBP_MUX_OK
        else {
            throw Failure(description: "could not set the animation parameters")
        }
        if metadata {
            for (tag, text) in [("ICCP", "not really a profile"), ("EXIF", "Exif\0\0 fake"), ("XMP ", "<x:xmpmeta/>")] {
                var bytes = Array(text.utf8)
                let ok = bytes.withUnsafeMutableBufferPointer { p -> WebPMuxError in
                    var chunk = WebPData(bytes: p.baseAddress, size: p.count)
                    return WebPMuxSetChunk(mux, tag, &chunk, 1)
                }
                guard ok == WEBP_MUX_OK else { throw Failure(description: "WebPMuxSetChunk(\(tag)): \(ok.rawValue)") }
            }
        }
        var out = WebPData(bytes: nil, size: 0)
        let status = WebPMuxAssemble(mux, &out)
        guard status == WEBP_MUX_OK, let bytes = out.bytes else { throw Failure(description: "WebPMuxAssemble: \(status.rawValue)") }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Data(bytes: bytes, count: out.size)
    }

    /// Every frame as libwebp's own animation decoder (`WebPAnimDecoder`, RGBA) composites it.
    static func referenceFrames(_ data: Data) throws -> [[UInt8]] {
        try data.withUnsafeBytes { raw in
            var webp = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
                throw Failure(description: "WebPAnimDecoderOptionsInit failed")
            }
            options.color_mode = MODE_RGBA
            guard let decoder = WebPAnimDecoderNewInternal(&webp, &options, WEBP_DEMUX_ABI_VERSION) else {
                throw Failure(description: "WebPAnimDecoderNew refused the file")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw Failure(description: "no info") }
            let count = Int(info.canvas_width * info.canvas_height * 4)
            var frames: [[UInt8]] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                    throw Failure(description: "WebPAnimDecoderGetNext failed")
                }
                frames.append(Array(UnsafeBufferPointer(start: buffer, count: count)))
            }
            return frames
        }
    }

    /// Byte offsets of the top-level chunks with this four-character code.
    static func chunkOffsets(_ data: Data, _ tag: String) -> [Int] {
        let b = [UInt8](data)
        var offsets: [Int] = []
        var off = 12
        while off + 8 <= b.count {
            let size = Int(b[off + 4]) | Int(b[off + 5]) << 8 | Int(b[off + 6]) << 16 | Int(b[off + 7]) << 24
            if String(decoding: b[off..<off + 4], as: UTF8.self) == tag { offsets.append(off) }
            off += 8 + size + (size & 1)
        }
        return offsets
    }
}
