import CAVIF
import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// An AVIF decoded as RGBA16 and rounded to 8 bits (`PixelBuffer.converted(to:)`) is its
/// RGBA8 frame within 1, at every depth, chroma layout, range and matrix: both depths go
/// through one YUV→RGB conversion.
@Suite(.enabled(if: AVIFTestEncoder.isAvailable, "libavif cannot encode with aom here"))
struct AVIFDepthAgreementTests {
    /// Odd sides, so the last column and row of subsampled chroma are reached.
    static let size = PixelSize(width: 37, height: 23)

    /// One file's YUV coding.
    struct Shape: CustomTestStringConvertible, Sendable {
        var depth: Int
        var format: avifPixelFormat
        var limited = false
        var matrix = AVIF_MATRIX_COEFFICIENTS_BT601  // an avifMatrixCoefficients value
        var alpha = true

        var testDescription: String {
            let layout =
                switch format {
                case AVIF_PIXEL_FORMAT_YUV420: "4:2:0"
                case AVIF_PIXEL_FORMAT_YUV422: "4:2:2"
                case AVIF_PIXEL_FORMAT_YUV400: "4:0:0"
                default: "4:4:4"
                }
            return "\(depth)-bit \(layout) \(limited ? "limited" : "full") matrix \(matrix)\(alpha ? " alpha" : "")"
        }
    }

    /// Sample `channel` (RGBA) of frame `k` at (x, y), out of `maximum`: gradients on the
    /// left, 3×3 blocks of saturated colours (sharp chroma edges) on the right; alpha ramps
    /// from 0 across the top third.
    static func sample(x: Int, y: Int, k: Int, channel: Int, maximum: Int) -> Int {
        let w = size.width, h = size.height
        if channel == 3 { return y < h / 3 ? x * maximum / (w - 1) : maximum }
        if x < w / 2 {
            switch channel {
            case 0: return x * maximum / (w / 2)
            case 1: return y * maximum / (h - 1)
            default: return ((x + y + 5 * k) % 13) * maximum / 12
            }
        }
        let palette = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 1], [0, 0, 0]]
        return palette[(x / 3 + y / 3 * 3 + k) % palette.count][channel] * maximum
    }

    /// Two frames as RGBA16 canvases (for `AVIFEncoder`), opaque unless `alpha`.
    static func canvases(alpha: Bool) -> [EncodingFrame] {
        (0..<2).map { k in
            var b = PixelBuffer(width: size.width, height: size.height, format: .rgba16)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    b.setPixel16(
                        x: x, y: y, (0..<4).map { alpha || $0 < 3 ? UInt16(sample(x: x, y: y, k: k, channel: $0, maximum: 65_535)) : 65_535 })
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(40))
        }
    }

    /// The largest channel difference, over every pixel of every frame, between the file
    /// decoded as RGBA16 and rounded, and the file decoded as RGBA8 (both in `alphaMode`).
    static func worstDifference(_ data: Data, alphaMode: AlphaMode = .straight) throws -> Int {
        let deep = try AVIFCoder().makeFrameSource(
            data: data, options: DecodingOptions(pixelFormat: PixelFormat(alphaMode: alphaMode, channelDepth: .sixteen)))
        let eight = try AVIFCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: PixelFormat(alphaMode: alphaMode)))
        var worst = 0
        for i in 0..<deep.info.frameCount {
            let rounded = try deep.decodeFrame(at: i).converted(to: .eight), frame = try eight.decodeFrame(at: i)
            #expect(rounded.format == frame.format)
            for (a, b) in zip(rounded.bytes, frame.bytes) { worst = max(worst, abs(Int(a) - Int(b))) }
        }
        return worst
    }

    /// The file's coding as libavif parses it: depth, layout, range, matrix, alpha.
    static func parsedShape(_ data: Data) throws -> Shape {
        let file = data.withUnsafeBytes { AVIFFileBytes(copying: $0) }
        let state = try AVIFDecodeState(file: file, sizeHint: data.count, source: AVIF_DECODER_SOURCE_AUTO, threads: 1, limits: Limits())
        let image = state.decoder.pointee.image.pointee
        return Shape(
            depth: Int(image.depth), format: image.yuvFormat, limited: image.yuvRange == AVIF_RANGE_LIMITED,
            matrix: Int(image.matrixCoefficients), alpha: state.decoder.pointee.alphaPresent == AVIF_TRUE)
    }

    static func check(_ data: Data, _ shape: Shape) throws {
        let parsed = try parsedShape(data)
        #expect(parsed.testDescription == shape.testDescription)
        let worst = try worstDifference(data)
        #expect(worst <= 1, "\(shape.testDescription): RGBA16 rounded differs from RGBA8 by \(worst)")
    }

    // MARK: Files from the project's encoder (full range, matrix unspecified, read as BT.601; 4:2:0 and 4:4:4)

    static let encoderShapes: [Shape] = [8, 10, 12].flatMap { depth in
        [AVIF_PIXEL_FORMAT_YUV420, AVIF_PIXEL_FORMAT_YUV444].flatMap { format in
            [true, false].map { Shape(depth: depth, format: format, matrix: AVIF_MATRIX_COEFFICIENTS_UNSPECIFIED, alpha: $0) }
        }
    }

    @Test(arguments: encoderShapes)
    func fromTheProjectEncoder(_ shape: Shape) throws {
        let encoder = AVIFEncoder(depth: shape.depth, chroma: shape.format == AVIF_PIXEL_FORMAT_YUV420 ? .yuv420 : .yuv444)
        let data = try encoder.encode(
            Self.canvases(alpha: shape.alpha), canvasSize: Self.size, options: EncodingOptions(quality: 50, framesAreOpaque: !shape.alpha))
        try Self.check(data, shape)
    }

    // MARK: Files made through libavif's API (4:2:2, monochrome, limited range, other matrices)

    static let libavifShapes: [Shape] =
        [8, 10, 12].flatMap { depth in
            [AVIF_PIXEL_FORMAT_YUV420, AVIF_PIXEL_FORMAT_YUV422, AVIF_PIXEL_FORMAT_YUV444, AVIF_PIXEL_FORMAT_YUV400].flatMap { format in
                [false, true].map { Shape(depth: depth, format: format, limited: $0) }
            }
        }
        + [AVIF_MATRIX_COEFFICIENTS_BT709, AVIF_MATRIX_COEFFICIENTS_BT2020_NCL].flatMap { matrix in
            [false, true].flatMap { limited in
                [8, 10, 12].map { Shape(depth: $0, format: AVIF_PIXEL_FORMAT_YUV420, limited: limited, matrix: matrix) }
            }
        }

    static func libavifFile(_ shape: Shape) throws -> Data {
        var encoder = AVIFTestEncoder(width: size.width, height: size.height, depth: shape.depth, withAlpha: shape.alpha)
        encoder.yuvFormat = shape.format
        encoder.yuvRange = shape.limited ? AVIF_RANGE_LIMITED : AVIF_RANGE_FULL
        encoder.matrix = avifMatrixCoefficients(shape.matrix)
        let maximum = (1 << shape.depth) - 1
        let frames = (0..<2).map { k in
            var rgba: [UInt16] = []
            for y in 0..<size.height {
                for x in 0..<size.width {
                    for c in 0..<4 { rgba.append(UInt16(sample(x: x, y: y, k: k, channel: c, maximum: maximum))) }
                }
            }
            return AVIFTestEncoder.Frame(rgba: rgba, durationMs: 40)
        }
        return try encoder.encode(frames)
    }

    @Test(arguments: libavifShapes)
    func madeThroughLibavif(_ shape: Shape) throws {
        try Self.check(try Self.libavifFile(shape), shape)
    }

    /// Premultiplied output agrees within 1 at 8 bits and 2 deeper: RGBA8 is libyuv's
    /// premultiplication (`ARGBAttenuate`, itself up to 1 from the exact product) of colour
    /// already rounded to 8 bits, which at 10 and 12 bits may be 1 from the deep colour rounded.
    @Test(arguments: [8, 10, 12])
    func premultipliedOutputAgrees(_ depth: Int) throws {
        let data = try Self.libavifFile(Shape(depth: depth, format: AVIF_PIXEL_FORMAT_YUV420))
        let worst = try Self.worstDifference(data, alphaMode: .premultiplied)
        #expect(worst <= (depth == 8 ? 1 : 2), "premultiplied \(depth)-bit 4:2:0: RGBA16 rounded differs from RGBA8 by \(worst)")
    }
}
