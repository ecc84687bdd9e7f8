import CWebP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zoetrope

/// `WebPEncoder`'s streaming session over one `WebPAnimEncoder` (which keeps the previous
/// canvases it needs and the encoded frames; nothing here grows with the frame count but
/// the output).
final class WebPStreamWriter: AnimatedImageWriter {
    private let encoder: OpaquePointer
    private let canvasSize: PixelSize
    private var config: WebPConfig
    /// The end of the last frame added, in ms: the next frame's timestamp.
    private var end = 0
    private var output: Data?
    private(set) var frameCount = 0

    init(encoder: OpaquePointer, canvasSize: PixelSize, config: WebPConfig) {
        self.encoder = encoder
        self.canvasSize = canvasSize
        self.config = config
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func add(_ frame: EncodingFrame) throws {
        guard output == nil else { throw AnimatedImageError.invalidArgument("WebPEncoder: frame added after finish()") }
        let i = frameCount
        let pixels = try frame.straightPixels(canvasSize: canvasSize, index: i)
        let ms = WebPEncoder.milliseconds(frame.duration)
        guard ms <= 0xFF_FFFF else {
            throw AnimatedImageError.invalidArgument("frame \(i) lasts \(frame.duration); WebP stores at most 16777215 ms")
        }
        guard end + ms <= Int(Int32.max) else { throw AnimatedImageError.invalidArgument("the animation is longer than 2^31 ms") }
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else { throw WebPStreamWriter.failure("picture ABI mismatch") }
        picture.use_argb = 1
        picture.width = Int32(canvasSize.width)
        picture.height = Int32(canvasSize.height)
        defer { WebPPictureFree(&picture) }
        let imported = pixels.bytes.withUnsafeBytes { raw in
            WebPPictureImportRGBA(&picture, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(pixels.bytesPerRow))
        }
        guard imported != 0 else { throw WebPStreamWriter.failure("could not import frame \(i) (out of memory)") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(end), &config) != 0 else {
            throw WebPStreamWriter.failure("frame \(i): " + errorText())
        }
        end += ms
        frameCount += 1
    }

    func finish() throws -> Data {
        if let output { return output }
        guard frameCount > 0 else { throw AnimatedImageError.invalidArgument("WebPEncoder needs at least one frame") }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else { throw WebPStreamWriter.failure(errorText()) }
        var assembled = WebPData(bytes: nil, size: 0)
        guard WebPAnimEncoderAssemble(encoder, &assembled) != 0, let bytes = assembled.bytes else {
            throw WebPStreamWriter.failure(errorText())
        }
        // libwebp's buffer becomes the Data (no second copy of a possibly large file).
        let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: assembled.size,
                        deallocator: .custom { p, _ in WebPFree(p) })
        output = data
        return data
    }

    private func errorText() -> String {
        guard let text = WebPAnimEncoderGetError(encoder) else { return "unknown error" }
        return String(cString: text)
    }

    static func failure(_ message: String) -> AnimatedImageError {
        .codecFailure(format: .webp, library: "libwebpmux", message: message)
    }
}
