import CAVIF
import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `AVIFEncoder`'s streaming session over one libavif encoder. The first frame is held until
/// a second arrives (a lone frame is written as a still); libavif keeps the encoded samples;
/// the timing is written into its output at `finish()` (`AVIFSequencePatch`).
final class AVIFStreamWriter: AnimatedImageWriter {
    private let encoder: UnsafeMutablePointer<avifEncoder>
    private let settings: AVIFEncoder
    private let canvasSize: PixelSize
    private let lossless: Bool
    private let loopCount: LoopCount
    /// `EncodingOptions.framesAreOpaque`: no alpha plane, and a frame that is not opaque is refused.
    private let opaque: Bool
    private var first: PixelBuffer?
    private var durations: [FrameDuration] = []
    private var output: Data?
    /// `EncodingOptions.color` and `.metadata`, set on every image given to libavif (it
    /// writes the first's; later frames must agree with it).
    private let color: ColorInfo
    private let metadata: EmbeddedMetadata
    var frameCount: Int { durations.count }
    /// Whether aom was given its screen-content tools (`AVIFContent`).
    private(set) var usesScreenTools = false

    init(encoder settings: AVIFEncoder, choice: avifCodecChoice, canvasSize: PixelSize, options: EncodingOptions) throws {
        guard let encoder = avifEncoderCreate() else { throw AVIFStreamWriter.failure("avifEncoderCreate failed") }
        self.encoder = encoder
        self.settings = settings
        self.canvasSize = canvasSize
        self.loopCount = options.loopCount ?? .infinite
        lossless = options.quality == nil
        opaque = options.framesAreOpaque
        color = options.color
        metadata = options.metadata
        encoder.pointee.codecChoice = choice
        encoder.pointee.speed = Int32(settings.effectiveSpeed(lossless: lossless))
        encoder.pointee.maxThreads = Int32(max(1, settings.threads))
        encoder.pointee.timescale = 1  // one tick per frame; the real timing is written at finish()
        let q = options.quality.map(AVIFEncoder.quantizer(forQuality:)) ?? 0
        encoder.pointee.minQuantizer = q
        encoder.pointee.maxQuantizer = q
        encoder.pointee.minQuantizerAlpha = q
        encoder.pointee.maxQuantizerAlpha = q
    }

    deinit { avifEncoderDestroy(encoder) }

    func add(_ frame: EncodingFrame) throws {
        guard output == nil else { throw AnimatedImageError.invalidArgument("AVIFEncoder: frame added after finish()") }
        // Deep output codes RGBA16 frames from their 16 bits; 8-bit output rounds them first.
        let pixels = try frame.straightPixels(canvasSize: canvasSize, index: frameCount, channelDepth: settings.depth > 8 ? nil : .eight)
        if opaque, !pixels.isOpaque {
            throw AnimatedImageError.invalidArgument("frame \(frameCount) is not opaque, but the options say every frame is")
        }
        if frameCount == 1 { try settings.checkCodecWritesSequences(canvasSize: canvasSize) }
        if let held = first {
            first = nil
            try encode(held, single: false)
        }
        if durations.isEmpty {
            // Before the codec starts (with the first encode): its tuning from the first frame.
            if settings.screenToolsApply(lossless: lossless), settings.content.usesScreenTools(first: pixels.converted(to: .eight)) {
                try checked("avifEncoderSetCodecSpecificOption", avifEncoderSetCodecSpecificOption(encoder, "tune-content", "screen"))
                usesScreenTools = true
            }
            first = pixels
        } else {
            try encode(pixels, single: false)
        }
        durations.append(frame.duration)
    }

    func finish() throws -> Data {
        if let output { return output }
        guard !durations.isEmpty else { throw AnimatedImageError.invalidArgument("AVIFEncoder needs at least one frame") }
        if let held = first {
            first = nil
            try encode(held, single: true)
        }
        var rw = avifRWData()
        defer { avifRWDataFree(&rw) }
        let r = avifEncoderFinish(encoder, &rw)
        guard r == AVIF_RESULT_OK, let bytes = rw.data else { throw failure("avifEncoderFinish", r) }
        var file = [UInt8](UnsafeBufferPointer(start: bytes, count: rw.size))
        if durations.count > 1 {
            file = try AVIFSequencePatch.apply(file, timing: AVIFSequenceTiming(durations: durations, loopCount: loopCount))
        }
        let data = Data(file)
        output = data
        return data
    }

    private func encode(_ pixels: PixelBuffer, single: Bool) throws {
        let format = lossless || settings.chroma == .yuv444 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = avifImageCreate(UInt32(canvasSize.width), UInt32(canvasSize.height), UInt32(settings.depth), format) else {
            throw AVIFStreamWriter.failure("avifImageCreate failed")
        }
        defer { avifImageDestroy(image) }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if lossless { image.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY) }
        try describe(image)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        // Opaque frames: no alpha plane, so libavif writes no alpha item or track.
        if opaque { rgb.ignoreAlpha = AVIF_TRUE }
        rgb.depth = UInt32(pixels.format.channelDepth.rawValue)
        rgb.rowBytes = UInt32(pixels.bytesPerRow)
        var bytes = pixels.bytes
        let converted = bytes.withUnsafeMutableBufferPointer { p in
            rgb.pixels = p.baseAddress
            return avifImageRGBToYUV(image, &rgb)
        }
        guard converted == AVIF_RESULT_OK else { throw failure("avifImageRGBToYUV", converted) }
        let flags = single ? avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue) : avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue)
        let added = avifEncoderAddImage(encoder, image, 1, flags)
        guard added == AVIF_RESULT_OK else { throw failure("avifEncoderAddImage", added) }
    }

    /// Writes the colour and metadata into `image`: the ICC profile (a `colr` `prof` box),
    /// the code points' primaries and transfer (the `nclx` box; the matrix and range stay
    /// those this writer encodes with, which is what they describe);
    /// Exif and XMP as libavif's metadata items.
    private func describe(_ image: UnsafeMutablePointer<avifImage>) throws {
        if let profile = color.iccProfile {
            try profile.data.withUnsafeBufferPointer { p in
                try checked("avifImageSetProfileICC", avifImageSetProfileICC(image, p.baseAddress, p.count))
            }
        }
        if let points = color.codePoints {
            image.pointee.colorPrimaries = avifColorPrimaries(points.primaries)
            image.pointee.transferCharacteristics = avifTransferCharacteristics(points.transfer)
        }
        if let exif = metadata.exif {
            try exif.withUnsafeBufferPointer { p in
                try checked("avifImageSetMetadataExif", avifImageSetMetadataExif(image, p.baseAddress, p.count))
            }
        }
        if let xmp = metadata.xmp {
            try xmp.withUnsafeBufferPointer { p in
                try checked("avifImageSetMetadataXMP", avifImageSetMetadataXMP(image, p.baseAddress, p.count))
            }
        }
    }

    /// A libavif 1.x setter's result (they return `avifResult`).
    private func checked(_ call: String, _ r: avifResult) throws {
        guard r == AVIF_RESULT_OK else { throw failure(call, r) }
    }

    /// A libavif 0.11 setter's result (they return nothing).
    private func checked(_ call: String, _ r: Void) throws {}

    private func failure(_ call: String, _ r: avifResult) -> AnimatedImageError {
        let detail = withUnsafeBytes(of: encoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return AVIFStreamWriter.failure("\(call): \(String(cString: avifResultToString(r)))" + (detail.isEmpty ? "" : " (\(detail))"))
    }

    static func failure(_ message: String) -> AnimatedImageError {
        .codecFailure(format: .avif, library: "libavif", message: message)
    }
}
