import CAVIF
import Foundation

/// Makes AVIF fixtures with libavif's own encoder (aom), by default lossless 4:4:4 with the
/// identity matrix so that decoded pixels are known exactly; other YUV shapes (4:2:2,
/// monochrome, limited range, other matrices) for what `AVIFEncoder` does not write.
struct AVIFTestEncoder {
    /// One frame: RGBA samples at `depth` bits (0...255 for 8, 0...1023 for 10, …), row-major.
    struct Frame {
        var rgba: [UInt16]
        var durationMs: UInt64
    }

    var width: Int
    var height: Int
    var depth: Int = 8
    var withAlpha = true
    /// Frames between forced key frames (0: only the first).
    var keyframeInterval = 0
    /// The YUV planes' layout, range and matrix (lossless AV1 keeps the planes exactly).
    var yuvFormat = AVIF_PIXEL_FORMAT_YUV444
    var yuvRange = AVIF_RANGE_FULL
    var matrix = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY)

    enum Failure: Error { case libavif(String) }

    /// Whether this libavif can encode with aom, which the fixtures need; tests that make
    /// fixtures are `.enabled(if: AVIFTestEncoder.isAvailable)` so they show as skipped without it.
    static var isAvailable: Bool {
        avifCodecName(AVIF_CODEC_CHOICE_AOM, avifCodecFlags(AVIF_CODEC_FLAG_CAN_ENCODE.rawValue)) != nil
    }

    /// Encodes `frames` as a sequence (timescale 1000), or as a still when `still` is set.
    func encode(_ frames: [Frame], still: Bool = false) throws -> Data {
        guard let encoder = avifEncoderCreate() else { throw Failure.libavif("avifEncoderCreate") }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        encoder.pointee.speed = AVIF_SPEED_FASTEST
        encoder.pointee.minQuantizer = AVIF_QUANTIZER_LOSSLESS
        encoder.pointee.maxQuantizer = AVIF_QUANTIZER_LOSSLESS
        encoder.pointee.minQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        encoder.pointee.maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS
        encoder.pointee.timescale = 1000
        encoder.pointee.keyframeInterval = Int32(keyframeInterval)
        for frame in frames {
            guard let image = avifImageCreate(UInt32(width), UInt32(height), UInt32(depth), yuvFormat) else {
                throw Failure.libavif("avifImageCreate")
            }
            defer { avifImageDestroy(image) }
            image.pointee.matrixCoefficients = matrix
            image.pointee.yuvRange = yuvRange
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = withAlpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
            rgb.depth = UInt32(depth)
            let channels = withAlpha ? 4 : 3
            var samples: [UInt16] = []
            for p in stride(from: 0, to: frame.rgba.count, by: 4) { samples += frame.rgba[p..<p + channels] }
            let r: avifResult
            if depth == 8 {
                var bytes = samples.map { UInt8(truncatingIfNeeded: $0) }
                rgb.rowBytes = UInt32(width * channels)
                r = bytes.withUnsafeMutableBufferPointer { p in
                    rgb.pixels = p.baseAddress
                    return avifImageRGBToYUV(image, &rgb)
                }
            } else {
                rgb.rowBytes = UInt32(width * channels * 2)
                r = samples.withUnsafeMutableBytes { p in
                    rgb.pixels = p.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    return avifImageRGBToYUV(image, &rgb)
                }
            }
            guard r == AVIF_RESULT_OK else { throw Failure.libavif("avifImageRGBToYUV: " + String(cString: avifResultToString(r))) }
            let flags = still ? avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue) : avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue)
            let added = avifEncoderAddImage(encoder, image, frame.durationMs, flags)
            guard added == AVIF_RESULT_OK else { throw Failure.libavif("avifEncoderAddImage: " + String(cString: avifResultToString(added))) }
        }
        var output = avifRWData()
        let r = avifEncoderFinish(encoder, &output)
        defer { avifRWDataFree(&output) }
        guard r == AVIF_RESULT_OK, let bytes = output.data else {
            throw Failure.libavif("avifEncoderFinish: " + String(cString: avifResultToString(r)))
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// A frame whose left half is `left` and right half `right` (RGBA at `depth` bits).
    func halves(_ left: [UInt16], _ right: [UInt16], durationMs: UInt64) -> Frame {
        var rgba: [UInt16] = []
        rgba.reserveCapacity(width * height * 4)
        for _ in 0..<height {
            for x in 0..<width { rgba += x < width / 2 ? left : right }
        }
        return Frame(rgba: rgba, durationMs: durationMs)
    }
}
