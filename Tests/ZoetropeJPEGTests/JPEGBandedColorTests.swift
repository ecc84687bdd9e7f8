import CTurboJPEG
import Foundation
import Testing
import Zoetrope
import ZoetropeColor
import ZoetropeColorTestSupport

@testable import ZoetropeJPEG

/// A tagged JPEG is decoded band by band and each band converted as the next decodes
/// (`BandedJPEGDecoder`): the frame must be byte for byte libjpeg-turbo's whole decode
/// converted in one pass, on any number of threads, at every band boundary.
@Suite struct JPEGBandedColorTests {
    static let adobeRGB = LCMSProfiles.adobeRGB(description: "Adobe RGB (1998)")

    /// A 300×517 picture (bands of 224 rows: two full, one of 69), noise over a gradient.
    static func picture(width: Int = 300, height: Int = 517) -> [UInt8] {
        var state: UInt32 = 12_345
        return JPEGFixtures.gradient(width: width, height: height).enumerated().map { i, v in
            state = state &* 1_103_515_245 &+ 12_345
            return i % 4 == 3 ? v : UInt8(clamping: Int(v) + Int(state >> 28) - 8)
        }
    }

    /// `jpeg` with the Adobe RGB profile in one APP2 chunk.
    static func tagged(_ jpeg: Data) -> Data {
        JPEGColorAndMetadataTests.inserting(jpeg, JPEGColorAndMetadataTests.iccSegments(adobeRGB, count: 1))
    }

    /// libjpeg-turbo's whole decode of `jpeg`, converted by the session's transform in one pass.
    static func expected(_ jpeg: Data) throws -> (pixels: [UInt8], warning: String?) {
        let (reference, warning) = JPEGFixtures.referenceAllowingWarnings(jpeg)
        var pixels = reference
        let transform = try #require(try ColorManagement.transform(for: ColorInfo(iccProfile: ICCProfile(data: adobeRGB))))
        pixels.applyColorTransform(transform)
        return (pixels.bytes, warning)
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_444, TJSAMP_GRAY])
    func bandsEqualTheWholeFrameConvertedOnAnyThreads(subsampling: TJSAMP) throws {
        #expect(BandedJPEGDecoder.bandRows(width: 300) == 224)
        let gray = subsampling == TJSAMP_GRAY
        let rgba = Self.picture()
        let pixels = gray ? stride(from: 0, to: rgba.count, by: 4).map { rgba[$0] } : rgba
        for progressive in [false, true] {
            let plain = JPEGFixtures.compress(
                pixels, width: 300, height: 517, pixelFormat: gray ? TJPF_GRAY : TJPF_RGBA, subsampling: subsampling,
                quality: 90, progressive: progressive)
            let data = Self.tagged(plain)
            let expected = try Self.expected(data)
            #expect(expected.warning == nil)
            for threads in [nil, 1, 2] as [Int?] {
                for format in [PixelFormat.rgba8, .rgba8Premultiplied] {
                    let source = try JPEGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: format, threadCount: threads))
                    let frame = try source.decodeFrame(at: 0)
                    #expect(frame.format == format && frame.size == PixelSize(width: 300, height: 517))
                    #expect(frame.bytes == expected.pixels, "progressive \(progressive), threads \(threads ?? 0), \(format)")
                }
            }
        }
    }

    @Test func aWarningInATaggedFileIsKeptWithItsPicture() throws {
        let plain = JPEGFixtures.compress(Self.picture(), width: 300, height: 517, subsampling: TJSAMP_420, quality: 90)
        // Four stray bytes before a table: libjpeg-turbo warns and reads on.
        let data = Self.tagged(JPEGFixtures.inserting([0x12, 0x34, 0x56, 0x78], before: 0xDB, in: plain))
        let expected = try Self.expected(data)
        #expect(expected.warning == "Corrupt JPEG data: 4 extraneous bytes before marker 0xdb")
        #expect(expected.pixels.count == 300 * 517 * 4)
        let transform = try #require(try ColorManagement.transform(for: ColorInfo(iccProfile: ICCProfile(data: Self.adobeRGB))))
        for parallel in [false, true] {
            var frame = PixelBuffer(width: 300, height: 517)
            let stride = frame.bytesPerRow, size = frame.size
            let warning = try data.withUnsafeBytes { file in
                try frame.bytes.withUnsafeMutableBytes { pixels in
                    try BandedJPEGDecoder.decode(
                        file, size: size, into: pixels.baseAddress!, bytesPerRow: stride, transform: transform, parallel: parallel)
                }
            }
            #expect(warning == expected.warning)
            #expect(frame.bytes == expected.pixels)
        }
    }

    @Test func aCorruptScanInATaggedFileIsTheSameErrorAsUntagged() throws {
        let plain = JPEGFixtures.compress(Self.picture(width: 64, height: 64), width: 64, height: 64, quality: 90)
        // A marker no scan may hold (SOF0 again) in the middle of the entropy-coded data.
        var broken = Self.tagged(plain)
        let middle = broken.count - 200
        broken.replaceSubrange(middle..<middle + 4, with: [0xFF, 0xC0, 0x00, 0x02])
        let untagged = Result { try JPEGCoder().makeFrameSource(data: broken, options: DecodingOptions(colorOutput: .stored)).decodeFrame(at: 0) }
        let tagged = Result { try JPEGCoder().makeFrameSource(data: broken, options: .default).decodeFrame(at: 0) }
        switch (untagged, tagged) {
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)")
        case (.success, .success):
            break
        default:
            Issue.record("one decode failed and the other did not: \(untagged), \(tagged)")
        }
    }
}
