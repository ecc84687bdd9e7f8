import CPNG
import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

@testable import ZoetropeTool

/// `zoetrope convert` and `AnimatedImage.encoded` keep the source's ICC profile (byte for
/// byte), Exif and XMP by default; `--strip` drops Exif and XMP, `--to-srgb` the profile; a
/// target that cannot hold a part is warned about.
@Suite struct ConvertColorTests {
    static let size = PixelSize(width: 20, height: 12)
    static let frames: [EncodingFrame] = (0..<3).map { k in
        var b = PixelBuffer(width: 20, height: 12)
        for y in 0..<12 { for x in 0..<20 { b.setPixel(x: x, y: y, [UInt8(x * 12), UInt8(y * 20 + k * 9), UInt8(k * 80), 255]) } }
        return EncodingFrame(pixels: b, duration: .milliseconds(60))
    }
    static let described = EncodingOptions(
        loopCount: .plays(2), color: ColorInfo(iccProfile: ColorFixtures.iccProfile),
        metadata: ColorFixtures.metadata)

    static func webp(_ options: EncodingOptions = described) throws -> Data {
        try WebPEncoder().encode(frames, canvasSize: size, options: options)
    }

    /// Converts with the tool; fails the test unless it exits 0. Returns the output and stderr.
    static func convert(_ input: Data, _ inName: String, _ outName: String, _ extra: [String] = []) throws -> (Data, String) {
        let (run, out, dir) = try ConvertFixtures.convert(input, inName: inName, outName: outName, ["--quiet"] + extra)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        return (try #require(out), run.stderr)
    }

    /// The profile in a PNG's iCCP chunk, decompressed.
    static func pngProfile(_ png: Data) -> [UInt8]? {
        let b = [UInt8](png)
        var o = 8
        while o + 12 <= b.count {
            let n = Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3])
            if String(decoding: b[o + 4..<o + 8], as: UTF8.self) == "iCCP" {
                let payload = Array(b[o + 8..<o + 8 + n])
                guard let nul = payload.firstIndex(of: 0) else { return nil }
                let stream = Array(payload[(nul + 2)...])
                var out = [UInt8](repeating: 0, count: 1 << 16)
                var length = uLong(out.count)
                guard uncompress(&out, &length, stream, uLong(stream.count)) == Z_OK else { return nil }
                return Array(out[0..<Int(length)])
            }
            o += 12 + n
        }
        return nil
    }

    @Test func webpToAVIFToAPNGKeepsTheProfileExifAndXMP() throws {
        let source = try Self.webp()
        let (avif, avifWarnings) = try Self.convert(source, "a.webp", "b.avif")
        #expect(avifWarnings.isEmpty, "\(avifWarnings)")
        let avifInfo = try ConvertFixtures.decode(avif).info
        #expect(avifInfo.color == ColorInfo(iccProfile: ColorFixtures.iccProfile))
        #expect(avifInfo.metadata == ColorFixtures.metadata)
        let (apng, apngWarnings) = try Self.convert(avif, "b.avif", "c.png")
        #expect(apngWarnings.isEmpty, "\(apngWarnings)")
        #expect(Self.pngProfile(apng) == ColorFixtures.iccProfile.data)
        #expect(try ConvertFixtures.decode(apng).info.metadata == ColorFixtures.metadata)
        // And on to GIF, which holds the profile only, and says so about the rest.
        let (gif, gifWarnings) = try Self.convert(source, "a.webp", "d.gif")
        #expect(try ConvertFixtures.decode(gif).info.color.iccProfile == ColorFixtures.iccProfile)
        #expect(gifWarnings.contains("gif cannot hold the source's Exif, XMP; left out"), "\(gifWarnings)")
        // GIF back to WebP: the profile again, byte for byte.
        let (again, _) = try Self.convert(gif, "d.gif", "e.webp")
        #expect(try ConvertFixtures.decode(again).info.color.iccProfile == ColorFixtures.iccProfile)
    }

    /// Reading a PNG's iCCP is another part of the colour work: this runs once the APNG
    /// decoder reports profiles, and closes the loop APNG → WebP → AVIF → APNG.
    @Test(
        .enabled(
            if: (try? ConvertFixtures.decode(APNGEncoder().encode(frames, canvasSize: size, options: described)))?
                .info.color.iccProfile != nil))
    func apngToWebPToAVIFToAPNGKeepsTheProfile() throws {
        let apng = try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: Self.described)
        let (webp, _) = try Self.convert(apng, "a.png", "b.webp")
        #expect(try ConvertFixtures.decode(webp).info.color.iccProfile == ColorFixtures.iccProfile)
        let (avif, _) = try Self.convert(webp, "b.webp", "c.avif")
        let (back, _) = try Self.convert(avif, "c.avif", "d.png")
        #expect(Self.pngProfile(back) == ColorFixtures.iccProfile.data)
        #expect(try ConvertFixtures.decode(back).info.metadata == ColorFixtures.metadata)
    }

    @Test func stripDropsExifAndXMPAndKeepsTheProfile() throws {
        for target in ["b.webp", "b.avif", "b.png"] {
            let (out, warnings) = try Self.convert(try Self.webp(), "a.webp", target, ["--strip"])
            let info = try ConvertFixtures.decode(out).info
            #expect(info.metadata == .none, "\(target)")
            if target == "b.png" {
                #expect(Self.pngProfile(out) == ColorFixtures.iccProfile.data)
            } else {
                #expect(info.color.iccProfile == ColorFixtures.iccProfile, "\(target)")
            }
            #expect(warnings.isEmpty, "\(target): \(warnings)")
        }
    }

    @Test func toSRGBWritesNoProfile() throws {
        for target in ["b.webp", "b.avif", "b.png", "b.gif"] {
            let (out, _) = try Self.convert(try Self.webp(), "a.webp", target, ["--to-srgb"])
            #expect(try ConvertFixtures.decode(out).info.color == .unspecified, "\(target)")
            if target == "b.png" { #expect(Self.pngProfile(out) == nil) }
        }
        // Exif and XMP stay unless stripped too.
        let (webp, _) = try Self.convert(try Self.webp(), "a.webp", "b.webp", ["--to-srgb"])
        #expect(try ConvertFixtures.decode(webp).info.metadata == ColorFixtures.metadata)
        let (both, _) = try Self.convert(try Self.webp(), "a.webp", "b.webp", ["--to-srgb", "--strip"])
        #expect(try ConvertFixtures.decode(both).info == (try ConvertFixtures.decode(try Self.webp(EncodingOptions(loopCount: .plays(2))))).info)
    }

    @Test func codePointsAWebPCannotHoldBecomeAnICCProfileShowingTheSameColours() throws {
        let p3 = ColorInfo(codePoints: ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true))
        let avif = try AVIFEncoder(speed: 10).encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(color: p3))
        let (webp, warnings) = try Self.convert(avif, "a.avif", "b.webp")
        #expect(warnings.isEmpty, "\(warnings)")
        let profile = try #require(try ConvertFixtures.decode(webp).info.color.iccProfile)
        #expect(profile.profileDescription == "H.273 primaries 12, transfer 13")
        // The lossless WebP holds the AVIF's stored values; both show the same colours.
        let shownWebP = try ConvertFixtures.decode(webp).frames
        let shownAVIF = try ConvertFixtures.decode(avif).frames
        #expect(shownWebP.count == shownAVIF.count)
        for (a, b) in zip(shownWebP, shownAVIF) { #expect(PixelComparison.firstMismatch(expected: b, got: a, tolerance: 1) == nil) }
        #expect(try ConvertFixtures.decode(webp, colorOutput: .stored).frames != shownWebP)
        // APNG holds them (cICP): written as they are.
        let (png, pngWarnings) = try Self.convert(avif, "a.avif", "b.png")
        #expect(pngWarnings.isEmpty, "\(pngWarnings)")
        #expect(Array([UInt8](png)[(8 + 25 + 8)..<(8 + 25 + 12)]) == [12, 13, 0, 1])  // the cICP chunk after IHDR
        // --to-srgb asks for nothing to be kept: no profile.
        let (srgb, srgbWarnings) = try Self.convert(avif, "a.avif", "c.webp", ["--to-srgb"])
        #expect(srgbWarnings.isEmpty, "\(srgbWarnings)")
        #expect(try ConvertFixtures.decode(srgb).info.color == .unspecified)
    }

    @Test func codePointsNoProfileExpressesAreWarnedAbout() throws {
        let pq = ColorInfo(codePoints: ColorCodePoints(primaries: 9, transfer: 16, matrix: 0, fullRange: true))
        let avif = try AVIFEncoder(speed: 10).encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(color: pq))
        let (webp, warnings) = try Self.convert(avif, "a.avif", "b.webp")
        #expect(warnings.contains("webp cannot hold the source's H.273 code points; left out"), "\(warnings)")
        #expect(try ConvertFixtures.decode(webp).info.color == .unspecified)
    }

    @Test func aPNGGammaGoesToWebPAndGIFAsAProfile() throws {
        let gamma = ColorInfo(gamma: 55556)
        let png = try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(color: gamma))
        for target in ["b.webp", "b.gif"] {
            let (out, warnings) = try Self.convert(png, "a.png", target)
            #expect(warnings.isEmpty, "\(target): \(warnings)")
            let decoded = try ConvertFixtures.decode(out)
            #expect(decoded.info.color.iccProfile?.profileDescription == "PNG gAMA 55556", "\(target)")
            if target == "b.webp" {
                for (a, b) in zip(decoded.frames, try ConvertFixtures.decode(png).frames) {
                    #expect(PixelComparison.firstMismatch(expected: b, got: a, tolerance: 1) == nil)
                }
            }
        }
        // gAMA 45455 alone means sRGB: nothing to express, and the gamma itself is left out.
        let srgbish = try APNGEncoder().encode(Self.frames, canvasSize: Self.size, options: EncodingOptions(color: ColorInfo(gamma: 45455)))
        let (webp, warnings) = try Self.convert(srgbish, "a.png", "b.webp")
        #expect(warnings.contains("webp cannot hold the source's gamma; left out"), "\(warnings)")
        #expect(try ConvertFixtures.decode(webp).info.color == .unspecified)
    }

    /// A JPEG's ICC profile and Exif go into the converted file: the profile byte for byte,
    /// the Exif with its orientation set to 1, since the frames are turned already.
    @Test func aJPEGsProfileAndExifAreKept() throws {
        let profile = ColorFixtures.iccProfile.data
        let chunk = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let app2: [UInt8] = [0xFF, 0xE2, UInt8((chunk.count + 2) >> 8), UInt8((chunk.count + 2) & 0xFF)] + chunk
        let photo = JPEGInfoTests.photo()
        let jpeg = photo.prefix(2) + Data(app2) + photo.dropFirst(2)
        for target in ["b.png", "b.webp", "b.avif"] {
            let (out, warnings) = try Self.convert(jpeg, "a.jpg", target)
            let info = try ConvertFixtures.decode(out).info
            #expect(info.color.iccProfile?.data == profile, "\(target)")
            #expect(info.canvasSize == PixelSize(width: 16, height: 24), "\(target): turned")
            let exif = try #require(info.metadata.exif, "\(target)")
            // The orientation entry's value (little-endian SHORT at offset 18): 6 became 1.
            #expect(Array(exif[18..<20]) == [1, 0], "\(target)")
            #expect(warnings.isEmpty, "\(target): \(warnings)")
        }
    }

    @Test func filesWithoutColourOrMetadataConvertAsBefore() throws {
        let plain = try Self.webp(EncodingOptions(loopCount: .plays(2)))
        let decoded = try ConvertFixtures.decode(plain)
        let asFrames = zip(decoded.frames, decoded.info.frameDurations).map { EncodingFrame(pixels: $0, duration: $1) }
        let (png, _) = try Self.convert(plain, "a.webp", "b.png")
        #expect(png == (try APNGEncoder().encode(asFrames, canvasSize: Self.size, options: EncodingOptions(loopCount: .plays(2)))))
        let (gif, _) = try Self.convert(plain, "a.webp", "b.gif")
        #expect(gif == (try GIFEncoder().encode(asFrames, canvasSize: Self.size, options: EncodingOptions(loopCount: .plays(2)))))
    }

    @Test func animatedImageEncodedKeepsThemByDefault() throws {
        let image = try AnimatedImage(data: try Self.webp(), registry: ConvertFixtures.registry)
        let kept = try ConvertFixtures.decode(try image.encoded(with: WebPEncoder())).info
        #expect(kept.color.iccProfile == ColorFixtures.iccProfile && kept.metadata == ColorFixtures.metadata)
        let policy = AnimationConversion.DescriptionPolicy(keepsColor: false, stripsMetadata: true)
        let dropped = try ConvertFixtures.decode(try image.encoded(with: WebPEncoder(), description: policy)).info
        #expect(dropped.color == .unspecified && dropped.metadata == .none)
        // What the options set wins over the source's.
        let other = EncodingOptions(color: ColorInfo(iccProfile: ColorFixtures.otherICCProfile))
        #expect(
            try ConvertFixtures.decode(try image.encoded(with: GIFEncoder(), options: other)).info.color.iccProfile
                == ColorFixtures.otherICCProfile)
        #expect(AnimationConversion.unwrittenParts(of: Self.described, by: GIFEncoder()) == [.exif, .xmp])
        #expect(AnimationConversion.unwrittenParts(of: Self.described, by: APNGEncoder()) == [])
    }
}
