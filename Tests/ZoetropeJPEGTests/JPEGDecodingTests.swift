import CTurboJPEG
import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeJPEG

@Suite struct JPEGDecodingTests {
    @Test func sniffsStartOfImageAndTheFirstMarker() {
        let coder = JPEGCoder()
        #expect(coder.sniff(Data([0xFF, 0xD8, 0xFF, 0xE0])) == .match(.jpeg, .still))
        #expect(coder.sniff(Data([0xFF, 0xD8, 0xFF])) == .match(.jpeg, .still))
        #expect(coder.sniff(Data([0xFF, 0xD8])) == .needMoreData(minimumLength: 3))
        #expect(coder.sniff(Data([0xFF])) == .needMoreData(minimumLength: 3))
        #expect(coder.sniff(Data([0xFF, 0xD8, 0x00])) == .noMatch)
        #expect(coder.sniff(Data("GIF89a".utf8)) == .noMatch)
        #expect(coder.sniff(Data([0x89, 0x50, 0x4E, 0x47])) == .noMatch)
        #expect(ImageFormat.jpeg.identifier == "jpeg" && ImageFormat.jpeg.mediaType == "image/jpeg")
        #expect(ImageFormat.jpeg.fileExtensions.starts(with: ["jpg", "jpeg", "jpe"]))
    }

    @Test func baselineDecodesAsLibjpegTurboDoesAtItsSize() throws {
        // 37×23: partial MCUs on both edges.
        let source = JPEGFixtures.gradient(width: 37, height: 23)
        let jpeg = JPEGFixtures.compress(source, width: 37, height: 23, subsampling: TJSAMP_420, quality: 95)
        let frames = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        #expect(frames.info.format == .jpeg)
        #expect(frames.info.canvasSize == PixelSize(width: 37, height: 23))
        #expect(frames.info.frameDurations == [.zero])
        #expect(frames.info.loopCount == .once)
        #expect(frames.info.hasAlpha == false)
        #expect(frames.info.truncation == nil)
        let frame = try frames.decodeFrame(at: 0)
        #expect(frame == JPEGFixtures.reference(jpeg))
        #expect(JPEGFixtures.maxDifference(frame, source) <= 12)
        #expect(frame.packedBytes.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func progressiveDecodesAsLibjpegTurboDoes() throws {
        let source = JPEGFixtures.gradient(width: 40, height: 33)
        let jpeg = JPEGFixtures.compress(source, width: 40, height: 33, quality: 90, progressive: true)
        #expect(jpeg.firstRange(of: Data([0xFF, 0xC2])) != nil)
        let frames = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        #expect((frames as? JPEGFrameSource)?.header.isProgressive == true)
        #expect(frames.info.canvasSize == PixelSize(width: 40, height: 33))
        let frame = try frames.decodeFrame(at: 0)
        #expect(frame == JPEGFixtures.reference(jpeg))
        #expect(JPEGFixtures.maxDifference(frame, source) <= 12)
    }

    @Test func greyscaleDecodesToGreyRGBA() throws {
        let grey: [UInt8] = (0..<(24 * 16)).map { (i: Int) -> UInt8 in UInt8(i % 24 * 10 + i / 24) }
        let jpeg = JPEGFixtures.compress(grey, width: 24, height: 16, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY, quality: 95)
        let frames = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        #expect((frames as? JPEGFrameSource)?.header.components == 1)
        let frame = try frames.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 24, height: 16))
        let expected: [UInt8] = grey.flatMap { (g: UInt8) -> [UInt8] in [g, g, g, 255] }
        #expect(JPEGFixtures.maxDifference(frame, expected) <= 6)
        for y in 0..<16 { for x in 0..<24 { let p = frame.pixel(x: x, y: y); #expect(p[0] == p[1] && p[1] == p[2] && p[3] == 255) } }
    }

    /// libjpeg-turbo writes CMYK with an Adobe marker, in the inverted convention (255: no ink).
    @Test func adobeCMYKConvertsToRGB() throws {
        // Stored C, M, Y, K: with K = 255 (no black) the colour is C, M, Y; with K = 128, half of it.
        var cmyk = [UInt8](), expected = [UInt8]()
        for y in 0..<16 {
            for x in 0..<16 {
                let c = UInt8(40 + x * 10), m = UInt8(200 - y * 8), yellow: UInt8 = 120, k: UInt8 = x < 8 ? 255 : 128
                cmyk += [c, m, yellow, k]
                expected += [UInt8(Int(c) * Int(k) / 255), UInt8(Int(m) * Int(k) / 255), UInt8(Int(yellow) * Int(k) / 255), 255]
            }
        }
        let jpeg = JPEGFixtures.compress(cmyk, width: 16, height: 16, pixelFormat: TJPF_CMYK, quality: 98)
        let frames = try JPEGCoder().makeFrameSource(data: jpeg, options: .default)
        let header = try #require((frames as? JPEGFrameSource)?.header)
        #expect(header.components == 4 && header.hasAdobeMarker)
        let frame = try frames.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 16, height: 16))
        #expect(JPEGFixtures.maxDifference(frame, expected) <= 8)
    }

    @Test func downsamplesAndPremultipliesOnRequest() throws {
        let source = JPEGFixtures.gradient(width: 40, height: 20)
        let jpeg = JPEGFixtures.compress(source, width: 40, height: 20)
        let full = try JPEGCoder().makeFrameSource(data: jpeg, options: .default).decodeFrame(at: 0)
        let premultiplied = try JPEGCoder().makeFrameSource(data: jpeg, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
            .decodeFrame(at: 0)
        #expect(premultiplied.format == .rgba8Premultiplied && premultiplied.bytes == full.bytes)
        let small = try JPEGCoder().makeFrameSource(data: jpeg, options: DecodingOptions(targetSize: PixelSize(width: 10, height: 10)))
        #expect(small.outputSize == PixelSize(width: 10, height: 5))
        var expected = PixelBuffer()
        full.copy(into: &expected, size: small.outputSize, format: .rgba8)
        #expect(try small.decodeFrame(at: 0) == expected)
    }

    @Test func keepsTheFrameSourceContract() throws {
        let jpeg = JPEGFixtures.compress(JPEGFixtures.gradient(width: 30, height: 20), width: 30, height: 20, progressive: true)
        #expect(FrameSourceContract(coder: JPEGCoder(), data: jpeg).violations() == [])
        let turned = JPEGFixtures.withOrientation(jpeg, 6)
        #expect(FrameSourceContract(coder: JPEGCoder(), data: turned).violations() == [])
    }

    @Test func opensThroughARegistryAmongTheOtherCoders() throws {
        let jpeg = JPEGFixtures.compress(JPEGFixtures.gradient(width: 8, height: 8), width: 8, height: 8)
        let image = try AnimatedImage(data: jpeg, registry: CoderRegistry(builtIn: [JPEGCoder()]))
        #expect(image.info.format == .jpeg && image.info.frameCount == 1)
    }
}
