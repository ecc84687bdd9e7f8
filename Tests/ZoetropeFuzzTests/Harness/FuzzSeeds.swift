import CTurboJPEG
import Foundation
import ZoetropeAPNG
import ZoetropeEncoding
import ZoetropeTestSupport
import ZoetropeWebP

@testable import Zoetrope

/// The project's own fixtures as fuzz seeds, one family per format: small, valid files that
/// reach the features the corpus may not (every disposal and blend mode, interlacing, local
/// colour tables, both loop extensions, frames past the screen, default images outside the
/// animation, lossy and lossless WebP with alpha). `Scripts/fuzz.sh` has a fuzz executable
/// write them out (`FuzzSeeds.write(to:)`) and adds the files of `../shared/corpus` at run time.
public enum FuzzSeeds {
    /// One seed file.
    public struct Seed: Sendable {
        /// `gif`, `png`, `webp`, `avif`, `jpeg`, `encode` or `colour` (`FuzzTarget.family`).
        public var family: String
        /// The file name.
        public var name: String
        /// The file's bytes.
        public var data: Data
    }

    /// Every fixture seed.
    public static func all() throws -> [Seed] {
        gif() + png() + (try webp()) + jpeg() + encode() + colour() + taggedFiles()
    }

    /// Writes every seed to `folder/<family>/<name>`.
    public static func write(to folder: URL) throws {
        for seed in try all() {
            let family = folder.appendingPathComponent(seed.family)
            try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
            try seed.data.write(to: family.appendingPathComponent(seed.name))
        }
    }

    // MARK: GIF

    static let palette: [GIFWriter.Color] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]

    static func gif() -> [Seed] {
        var seeds: [Seed] = []
        // Two loop blocks, delays, transparency, every disposal, a local table, interlacing.
        var w = GIFWriter(width: 4, height: 4, globalColors: palette)
        w.loop(0)
        w.loop(3, identifier: "ANIMEXTS1.0")
        w.graphicControl(delay: 10, disposal: 1)
        w.image(width: 4, height: 4, indices: (0..<16).map { UInt8($0 % 4) })
        w.graphicControl(delay: 0, disposal: 2, transparentIndex: 0)
        w.image(x: 1, y: 1, width: 2, height: 2, indices: [0, 1, 2, 3])
        w.graphicControl(delay: 2, disposal: 3)
        w.image(x: 0, y: 2, width: 4, height: 2, indices: (0..<8).map { UInt8($0 % 2) }, localColors: [(9, 9, 9), (200, 100, 50)])
        w.comment("seed")
        w.graphicControl(delay: 65535, disposal: 0, transparentIndex: 3)
        w.image(width: 4, height: 4, indices: (0..<16).map { UInt8(3 - $0 % 4) }, interlaced: true)
        seeds.append(Seed(family: "gif", name: "fixture-animation.gif", data: Data(w.file)))

        // A GIF87a still with an 8-bit code size.
        var s = GIFWriter(width: 3, height: 2, globalColors: (0..<256).map { (UInt8($0), UInt8(255 - $0), 7) }, version: "87a")
        s.image(width: 3, height: 2, indices: [0, 50, 100, 150, 200, 255])
        seeds.append(Seed(family: "gif", name: "fixture-still87a.gif", data: Data(s.file)))

        // The first frame reaches past the screen (the canvas grows), a plain text block,
        // no global table (local tables only).
        var g = GIFWriter(width: 2, height: 2)
        g.plainText("hi", width: 2, height: 2)
        g.graphicControl(delay: 5, disposal: 2)
        g.image(x: 1, y: 1, width: 3, height: 2, indices: [0, 1, 1, 0, 1, 0], localColors: [(1, 2, 3), (4, 5, 6)])
        g.graphicControl(delay: 5)
        g.image(width: 2, height: 2, indices: [1, 1, 0, 0], localColors: [(7, 8, 9), (10, 11, 12)])
        seeds.append(Seed(family: "gif", name: "fixture-growing-canvas.gif", data: Data(g.file)))
        return seeds
    }

    // MARK: PNG / APNG

    static func png() -> [Seed] {
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 128], blue: [UInt8] = [0, 0, 255, 255]
        var seeds: [Seed] = []
        // IDAT is frame 0; every dispose and blend op; a frame off the origin.
        let animation = APNGWriter.animation(
            width: 4, height: 3,
            frames: [
                .solid(width: 4, height: 3, red, delayNumerator: 1, delayDenominator: 10),
                .solid(x: 1, y: 1, width: 2, height: 2, green, delayNumerator: 0, delayDenominator: 0, disposeOp: 1, blendOp: 1),
                .solid(x: 2, width: 2, height: 1, blue, delayNumerator: 3, delayDenominator: 7, disposeOp: 2, blendOp: 0),
                .solid(width: 1, height: 3, green, delayNumerator: 65535, delayDenominator: 1, blendOp: 1),
            ], plays: 3)
        seeds.append(Seed(family: "png", name: "fixture-idat-frame.png", data: animation.data))
        // A default image outside the animation; PREVIOUS on the first frame.
        let outside = APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, blue, disposeOp: 2),
                .solid(x: 1, width: 1, height: 2, red, blendOp: 1),
            ], plays: 0, defaultImage: [UInt8](repeating: 77, count: 16))
        seeds.append(Seed(family: "png", name: "fixture-default-image.png", data: outside.data))
        // A still PNG.
        seeds.append(
            Seed(
                family: "png", name: "fixture-still.png",
                data: APNGWriter.stillPNG(width: 2, height: 1, rgba: red + green)))
        // libpng-compressed frames (real deflate, filters) from the project's encoder.
        if let encoded = try? APNGEncoder().encode(
            gradientFrames(), canvasSize: PixelSize(width: 8, height: 6),
            options: EncodingOptions(loopCount: .plays(2)))
        {
            seeds.append(Seed(family: "png", name: "fixture-encoded.png", data: encoded))
        }
        return seeds
    }

    // MARK: WebP

    static func webp() throws -> [Seed] {
        let size = PixelSize(width: 8, height: 6)
        return [
            Seed(
                family: "webp", name: "fixture-lossless.webp",
                data: try WebPEncoder(method: 0).encode(gradientFrames(), canvasSize: size, options: EncodingOptions(loopCount: .plays(2)))),
            Seed(
                family: "webp", name: "fixture-lossy.webp",
                data: try WebPEncoder(method: 0).encode(gradientFrames(), canvasSize: size, options: EncodingOptions(quality: 50))),
            Seed(
                family: "webp", name: "fixture-still.webp",
                data: try WebPEncoder(method: 0).encode(Array(gradientFrames().prefix(1)), canvasSize: size, options: EncodingOptions())),
        ]
    }

    // MARK: Encoder inputs

    /// Inputs of the `encode` target (`FuzzEncoding`): the first byte picks the format, the
    /// rest the animation; three per format, from a fixed pseudo-random stream.
    static func encode() -> [Seed] {
        var state: UInt32 = 12345
        var seeds: [Seed] = []
        for format in 0..<FuzzEncoding.Format.allCases.count {
            for variant in 0..<3 {
                let bytes = (0..<(40 + 60 * variant)).map { _ -> UInt8 in
                    state = state &* 1_103_515_245 &+ 12345
                    return UInt8(truncatingIfNeeded: state >> 16)
                }
                seeds.append(
                    Seed(
                        family: "encode", name: "fixture-\(FuzzEncoding.Format.allCases[format])-\(variant).bin",
                        data: Data([UInt8(format)] + bytes)))
            }
        }
        return seeds
    }

    // MARK: JPEG

    /// Baseline 4:2:0 with an Exif orientation, progressive, greyscale and Adobe CMYK, made
    /// with libjpeg-turbo's compressor.
    static func jpeg() -> [Seed] {
        let rgba = (0..<(13 * 9)).flatMap { (i: Int) -> [UInt8] in [UInt8(i % 13 * 19), UInt8(i / 13 * 28), 90, 255] }
        let grey = (0..<(13 * 9)).map { (i: Int) -> UInt8 in UInt8(i * 2) }
        let cmyk = (0..<(13 * 9)).flatMap { (i: Int) -> [UInt8] in [UInt8(i % 13 * 19), 200, UInt8(i * 2), i % 2 == 0 ? 255 : 128] }
        let baseline = compressJPEG(rgba, TJPF_RGBA, TJSAMP_420, flags: 0)
        // APP1 "Exif\0\0", big-endian TIFF, IFD0 with one entry: Orientation (SHORT) = 6.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let exif = baseline.prefix(2) + Data([0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload) + baseline.dropFirst(2)
        return [
            Seed(family: "jpeg", name: "fixture-baseline-exif.jpg", data: exif),
            Seed(family: "jpeg", name: "fixture-progressive.jpg", data: compressJPEG(rgba, TJPF_RGBA, TJSAMP_444, flags: TJFLAG_PROGRESSIVE)),
            Seed(family: "jpeg", name: "fixture-grey.jpg", data: compressJPEG(grey, TJPF_GRAY, TJSAMP_GRAY, flags: 0)),
            Seed(family: "jpeg", name: "fixture-cmyk.jpg", data: compressJPEG(cmyk, TJPF_CMYK, TJSAMP_444, flags: 0)),
        ]
    }

    /// A 13×9 picture compressed by libjpeg-turbo at quality 80.
    static func compressJPEG(_ pixels: [UInt8], _ format: TJPF, _ subsampling: TJSAMP, flags: Int32) -> Data {
        guard let handle = tjInitCompress() else { return Data() }
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let stride = Int32(13 * (format == TJPF_GRAY ? 1 : 4))
        guard
            tjCompress2(
                handle, pixels, 13, stride, 9, Int32(format.rawValue), &out, &size,
                Int32(subsampling.rawValue), 80, flags) == 0, let out
        else { return Data() }
        defer { tjFree(out) }
        return Data(bytes: out, count: Int(size))
    }

    /// Three 8×6 canvases: an opaque gradient, then a half-transparent square moving over it,
    /// so encoders write sub-rectangles, blending and alpha.
    static func gradientFrames() -> [EncodingFrame] {
        var base = PixelBuffer(width: 8, height: 6)
        for y in 0..<6 {
            for x in 0..<8 {
                base.setPixel(x: x, y: y, [UInt8(x * 30), UInt8(y * 40), 90, 255])
            }
        }
        var frames = [EncodingFrame(pixels: base, duration: .milliseconds(100))]
        for step in 1...2 {
            var canvas = base
            canvas.paint(x: step * 2, y: 1, width: 3, height: 3, [255, 255, 0, UInt8(60 * step)])
            if step == 2 { canvas.paint(x: 0, y: 0, width: 2, height: 2, [0, 0, 0, 0]) }
            frames.append(EncodingFrame(pixels: canvas, duration: .centiseconds(Int64(step * 7))))
        }
        return frames
    }
}
