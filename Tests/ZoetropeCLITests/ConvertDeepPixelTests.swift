import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeQuality
import ZoetropeTestSupport
import ZoetropeWebP

@testable import ZoetropeTool

/// `zoetrope convert` keeps a deep source deep where the target holds more than 8 bits:
/// 16-bit APNG → APNG exactly, → AVIF at 10 bits by default, and a 10-bit AVIF → a 16-bit
/// PNG; targets of 8 bits get the nearest values.
@Suite struct ConvertDeepPixelTests {
    static let size = PixelSize(width: 18, height: 10)
    static let frames: [EncodingFrame] = (0..<3).map { k in
        var b = PixelBuffer(width: size.width, height: size.height, format: .rgba16)
        for y in 0..<size.height {
            for x in 0..<size.width {
                b.setPixel16(x: x, y: y, [UInt16(x * 3_601 + k * 97), UInt16(y * 6_007 + x), UInt16((x + y) * 1_777 + k * 13), 65_535])
            }
        }
        return EncodingFrame(pixels: b, duration: .milliseconds(80))
    }

    static func deepAPNG() throws -> Data {
        try APNGEncoder().encode(frames, canvasSize: size, options: EncodingOptions(loopCount: .infinite))
    }

    static func convert(_ input: Data, _ inName: String, _ outName: String, _ extra: [String] = []) throws -> Data {
        let (run, out, dir) = try ConvertFixtures.convert(input, inName: inName, outName: outName, ["--quiet"] + extra)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(out)
    }

    static func decoded(_ data: Data, _ format: PixelFormat = .rgba16) throws -> (AnimationInfo, [PixelBuffer]) {
        let source = try ConvertFixtures.registry.makeFrameSource(data: data, options: DecodingOptions(pixelFormat: format))
        return (source.info, try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) })
    }

    static func maxDifference(_ a: [PixelBuffer], _ b: [EncodingFrame]) -> Int {
        #expect(a.count == b.count)
        return zip(a, b).map { PixelComparison.maxChannelDifference16($0, $1.pixels) }.max() ?? 0
    }

    @Test func sixteenBitAPNGToAPNGIsExact() throws {
        let out = try Self.convert(try Self.deepAPNG(), "deep.png", "out.png")
        let (info, frames) = try Self.decoded(out)
        #expect(info.bitsPerChannel == 16)
        #expect(frames.map(\.packedBytes) == Self.frames.map(\.pixels.packedBytes))
    }

    @Test func sixteenBitAPNGToAVIFAndBackKeepsTenBits() throws {
        let avif = try Self.convert(try Self.deepAPNG(), "deep.png", "out.avif", ["--lossless"])
        let (avifInfo, avifFrames) = try Self.decoded(avif)
        #expect(avifInfo.bitsPerChannel == 10)
        #expect(Self.maxDifference(avifFrames, Self.frames) <= 65_535 / 1_023)
        let png = try Self.convert(avif, "ten.avif", "back.png")
        let (pngInfo, pngFrames) = try Self.decoded(png)
        #expect(pngInfo.bitsPerChannel == 16)
        #expect(pngFrames.map(\.packedBytes) == avifFrames.map(\.packedBytes))
        #expect(Self.maxDifference(pngFrames, Self.frames) <= 65_535 / 1_023)
    }

    /// The API's one-call conversion keeps depth as the tool does.
    @Test func encodedWithKeepsDepthWhereTheEncoderDoes() throws {
        let image = try AnimatedImage(data: try Self.deepAPNG(), registry: ConvertFixtures.registry)
        #expect(image.info.isDeep)
        let (apngInfo, apngFrames) = try Self.decoded(try image.encoded(with: APNGEncoder()))
        #expect(apngInfo.bitsPerChannel == 16)
        #expect(apngFrames.map(\.packedBytes) == Self.frames.map(\.pixels.packedBytes))
        let (avifInfo, avifFrames) = try Self.decoded(try image.encoded(with: AVIFEncoder(depth: 12)))
        #expect(avifInfo.bitsPerChannel == 12)
        #expect(Self.maxDifference(avifFrames, Self.frames) <= 65_535 / 4_095)
        #expect(try Self.decoded(try image.encoded(with: WebPEncoder())).0.bitsPerChannel == 8)
    }

    @Test func depthOptionChoosesTheAVIFDepth() throws {
        let twelve = try Self.convert(try Self.deepAPNG(), "deep.png", "out.avif", ["--lossless", "--depth", "12"])
        let (info, frames) = try Self.decoded(twelve)
        #expect(info.bitsPerChannel == 12)
        #expect(Self.maxDifference(frames, Self.frames) <= 65_535 / 4_095)
        let eight = try Self.convert(try Self.deepAPNG(), "deep.png", "out.avif", ["--lossless", "--depth", "8"])
        #expect(try Self.decoded(eight).0.bitsPerChannel == 8)
        let (run, _, dir) = try ConvertFixtures.convert(try Self.deepAPNG(), inName: "deep.png", outName: "out.avif", ["--depth", "9"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 2)
        #expect(run.stderr.contains("--depth is 8, 10 or 12, got '9'"))
    }

    @Test func eightBitTargetsGetTheNearestValues() throws {
        let webp = try Self.convert(try Self.deepAPNG(), "deep.png", "out.webp")
        let (info, frames) = try Self.decoded(webp, .rgba8)
        #expect(info.bitsPerChannel == 8)
        #expect(frames.map(\.packedBytes) == Self.frames.map { $0.pixels.converted(to: .eight).packedBytes })
    }

    @Test func infoReportsTheDepth() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("deep.png")
        try Self.deepAPNG().write(to: file)
        let text = ToolRun(["info", file.path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("depth      16 bits per channel"))
        let json = ToolRun(["info", "--json", file.path])
        let object = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(object["bitsPerChannel"] as? Int == 16)
    }

    /// GIF and WebP hold 8 bits: asked for RGBA16, their frames are the RGBA8 frames widened
    /// exactly, in either alpha mode and at a target size. An 8-bit AVIF's YUV converts
    /// straight to 16-bit RGB, keeping the conversion's fractions: its RGBA8 frames are
    /// those rounded.
    @Test(arguments: ["gif", "webp", "avif"]) func eightBitFormatsDecodeToRGBA16Widened(_ ext: String) throws {
        let file = try Self.convert(try Self.deepAPNG(), "deep.png", "out.\(ext)", ext == "avif" ? ["--depth", "8"] : [])
        for (deep, shallow) in [(PixelFormat.rgba16, PixelFormat.rgba8), (.rgba16Premultiplied, .rgba8Premultiplied)] {
            for target in [nil, PixelSize(width: 7, height: 7)] {
                let a = try ConvertFixtures.registry.makeFrameSource(data: file, options: DecodingOptions(pixelFormat: deep, targetSize: target))
                let b = try ConvertFixtures.registry.makeFrameSource(data: file, options: DecodingOptions(pixelFormat: shallow, targetSize: target))
                for i in 0..<a.info.frameCount {
                    let wide = try a.decodeFrame(at: i), narrow = try b.decodeFrame(at: i)
                    #expect(wide.format == deep)
                    // Premultiplied: widened before multiplying, so within one 8-bit step.
                    if deep.alphaMode == .straight, ext != "avif" {
                        #expect(wide.packedBytes == narrow.converted(to: .sixteen).packedBytes, "\(ext) frame \(i) \(String(describing: target))")
                    } else {
                        let w = wide.converted(to: .eight).packedBytes, n = narrow.packedBytes
                        #expect(zip(w, n).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(ext) frame \(i)")
                    }
                }
            }
        }
    }

    /// Comparisons are made at 8 bits: RGBA16 sources give what their RGBA8 frames give.
    @Test func deepSourcesCompareAtEightBits() throws {
        let avif = try Self.convert(try Self.deepAPNG(), "deep.png", "out.avif", ["--lossless"])
        func sources(_ format: PixelFormat) throws -> (any FrameSource, any FrameSource) {
            let options = DecodingOptions(pixelFormat: format)
            return (
                try ConvertFixtures.registry.makeFrameSource(data: try Self.deepAPNG(), options: options),
                try ConvertFixtures.registry.makeFrameSource(data: avif, options: options)
            )
        }
        let (a8, b8) = try sources(.rgba8)
        let (a16, b16) = try sources(.rgba16)
        let eight = try AnimationComparison(a8, b8), deep = try AnimationComparison(a16, b16)
        #expect(deep.frames.map(\.maxChannelDifference) == eight.frames.map(\.maxChannelDifference))
        #expect(deep.pooledPSNR == eight.pooledPSNR)
        #expect(deep.meanSSIMULACRA2 == eight.meanSSIMULACRA2)
    }
}
