import CLCMS2
import Foundation
import Testing
import Zoetrope
import ZoetropeColor
import ZoetropeColorTestSupport
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Profiles and reference conversions made here with lcms2 directly, not through ZoetropeColor.
private enum Reference {
    static func profile(primaries: [(Double, Double)], params: [Double]) -> cmsHPROFILE {
        LCMSProfiles.rgbProfile(primaries: primaries, curve: params)
    }

    static let adobeRGB = LCMSProfiles.adobeRGB()

    /// `rgb` (opaque) from `profile` to sRGB, relative colorimetric, as lcms2 computes it.
    static func toSRGB(_ profile: cmsHPROFILE, _ rgb: [UInt8]) -> [UInt8] {
        Array(LCMSProfiles.toSRGB(rgb + [255], from: profile)[0..<3])
    }
}

@Suite("APNG colour chunks and conversion to sRGB")
struct APNGColorTests {
    static let stored: [UInt8] = [128, 64, 200, 255]
    /// What Chromium shows for 128,64,200 in Adobe RGB (1998).
    static let chromium: [UInt8] = [146, 62, 205, 255]

    /// A 4×4 two-frame APNG (frame 1 a 2×2 OVER patch) with `chunks` after IHDR.
    static func file(_ chunks: [(String, [UInt8])], colour: [UInt8] = stored, patch: [UInt8] = [200, 100, 50, 255]) -> Data {
        var w = APNGWriter.animation(
            width: 4, height: 4,
            frames: [
                .solid(width: 4, height: 4, colour),
                .solid(x: 1, y: 1, width: 2, height: 2, patch, blendOp: 1),
            ])
        for (i, c) in chunks.enumerated() { w.chunks.insert(APNGWriter.Chunk(type: c.0, payload: c.1), at: 1 + i) }
        return w.data
    }

    static func iccp(_ profile: [UInt8], name: String = "Adobe RGB") -> (String, [UInt8]) {
        ("iCCP", Array(name.utf8) + [0, 0] + APNGWriter.zlibStored(profile))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func pixel(_ b: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let o = y * b.bytesPerRow + x * 4
        return Array(b.bytes[o..<o + 4])
    }

    @Test("An Adobe RGB iCCP converts 128,64,200 to 146,62,205, on every path a frame takes")
    func adobeRGB() throws {
        let data = Self.file([Self.iccp(Reference.adobeRGB)])
        let source = try Fixture.source(data)
        #expect(source.info.color.iccProfile?.data == Reference.adobeRGB)
        #expect(source.info.warnings.isEmpty)
        let f0 = try source.decodeFrame(at: 0), f1 = try source.decodeFrame(at: 1)
        #expect(f0.bytes == Fixture.fill(4, 4, Self.chromium))  // full-canvas frame: the direct path
        let adobe = cmsOpenProfileFromMem(Reference.adobeRGB, cmsUInt32Number(Reference.adobeRGB.count))!
        defer { cmsCloseProfile(adobe) }
        let patch = Reference.toSRGB(adobe, [200, 100, 50]) + [255]
        #expect(Self.pixel(f1, 0, 0) == Self.chromium)  // through the canvas
        #expect(Self.pixel(f1, 1, 1) == patch)
        // Bulk runs (payloads decoded ahead, delivered directly or drawn) give the same bytes.
        let check = BulkDecodingCheck { try APNGCoder().makeFrameSource(data: data, options: .default) }
        #expect(try check.violations() == [])
        #expect(try check.bulk(threads: 2).frames.map(\.pixels) == [f0, f1])
    }

    @Test(".stored keeps 128,64,200 and reports the profile")
    func stored() throws {
        let source = try Fixture.source(Self.file([Self.iccp(Reference.adobeRGB)]), options: DecodingOptions(colorOutput: .stored))
        #expect(source.info.color.iccProfile?.data == Reference.adobeRGB)
        #expect(source.info.color.iccProfile?.profileDescription != nil)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, Self.stored))
    }

    @Test("An sRGB-chunk file and an untagged file decode to their stored values, no transform")
    func srgbAndUntagged() throws {
        for chunks in [[("sRGB", [0] as [UInt8])], []] {
            let data = Self.file(chunks)
            let source = try Fixture.source(data)
            #expect(source.colorTransform == nil)
            #expect(source.info.color == (chunks.isEmpty ? .unspecified : ColorInfo(srgbRenderingIntent: 0)))
            let frames = try (0..<2).map { try source.decodeFrame(at: $0) }
            let stored = try Fixture.frames(data, options: DecodingOptions(colorOutput: .stored))
            #expect(frames == stored)
            #expect(frames[0].bytes == Fixture.fill(4, 4, Self.stored))
        }
    }

    @Test("cICP Display P3 (12/13) converts, and wins over an iCCP; cICP sRGB (1/13) wins over Adobe RGB")
    func cicp() throws {
        let source = try Fixture.source(Self.file([("cICP", [12, 13, 0, 1])]))
        #expect(source.info.color.codePoints == ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true))
        let sRGBCurve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let p3 = Reference.profile(primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], params: sRGBCurve)
        defer { cmsCloseProfile(p3) }
        let expected = Reference.toSRGB(p3, [128, 64, 200]) + [255]
        #expect(expected != Self.stored)
        #expect(Self.pixel(try source.decodeFrame(at: 0), 2, 2) == expected)

        let both = try Fixture.source(Self.file([("cICP", [1, 13, 0, 1]), Self.iccp(Reference.adobeRGB)]))
        #expect(both.info.color.iccProfile != nil)
        #expect(try both.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, Self.stored))
    }

    @Test("gAMA alone near 1/2.2 is sRGB, farther converts (Chromium's rules); cHRM with gAMA converts")
    func gammaAndChromaticities() throws {
        let gammaOnly = try Fixture.source(Self.file([("gAMA", [0, 0, 0xB1, 0x8F])]))  // 45455
        #expect(gammaOnly.info.color.gamma == 45455)
        #expect(gammaOnly.info.warnings.isEmpty)
        #expect(try gammaOnly.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, Self.stored))
        let linear = try Fixture.source(Self.file([("gAMA", Self.be32(100_000))]))
        #expect(linear.info.warnings.isEmpty)
        let srgbPrimaries = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
        let gamma1 = Reference.profile(primaries: srgbPrimaries, params: [1.0])
        defer { cmsCloseProfile(gamma1) }
        let expected = Reference.toSRGB(gamma1, Array(Self.stored[0..<3])) + [255]
        #expect(expected != Self.stored)
        #expect(Self.pixel(try linear.decodeFrame(at: 0), 0, 0) == expected)
        #expect(
            try Fixture.source(Self.file([("gAMA", Self.be32(100_000))]), options: DecodingOptions(colorOutput: .stored)).decodeFrame(at: 0).bytes
                == Fixture.fill(4, 4, Self.stored))

        var chrm: [UInt8] = []
        for v: UInt32 in [31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000] { chrm += Self.be32(v) }
        let gama = Self.be32(45471)  // 1 / (563/256)
        let adobe = try Fixture.source(Self.file([("gAMA", gama), ("cHRM", chrm)]))
        #expect(adobe.info.color.chromaticities?.greenY == 71000)
        #expect(try adobe.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, Self.chromium))
    }

    @Test("A grey iCCP on a grey PNG converts every grey to the sRGB grey of the same luminance; alpha stays")
    func greyProfile() throws {
        let greys: [UInt8] = [0, 1, 30, 64, 128, 200, 254, 255]
        let alphas: [UInt8] = [255, 0, 9, 128, 255, 77, 3, 200]
        for gamma in [1.0, 1.8, 2.6] {
            // The luminance the grey profile gives v, (v / 255)^gamma, encoded with sRGB's curve.
            let expected = greys.map { v -> Int in
                let y = pow(Double(v) / 255, gamma)
                let e = y <= 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055
                return Int((e * 255).rounded())
            }
            for colorType: UInt8 in [0, 4] {
                var w = APNGWriter()
                w.append("IHDR", APNGWriter.ihdr(width: greys.count, height: 1, colorType: colorType))
                let chunk = Self.iccp(LCMSProfiles.grey(gamma: gamma), name: "grey")
                w.append(chunk.0, chunk.1)
                let row = colorType == 0 ? greys : zip(greys, alphas).flatMap { [$0, $1] }
                w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rows: [row])))
                w.append("IEND", [])
                let source = try Fixture.source(w.data)
                #expect(source.info.warnings.isEmpty, "\(source.info.warnings)")
                let frame = try source.decodeFrame(at: 0)
                for i in greys.indices {
                    let p = Self.pixel(frame, i, 0)
                    // lcms2's 8-bit transform is within one level of the exact value.
                    #expect(p[0] == p[1] && p[1] == p[2] && abs(Int(p[0]) - expected[i]) <= 1, "gamma \(gamma), grey \(greys[i]): \(p)")
                    #expect(p[3] == (colorType == 0 ? 255 : alphas[i]))
                }
            }
        }
    }

    @Test("A corrupt iCCP (bad zlib, or a profile lcms2 rejects) decodes stored values with a warning")
    func corrupt() throws {
        var badZlib = Self.iccp(Reference.adobeRGB)
        badZlib.1[badZlib.1.count - 1] ^= 0xFF  // Adler-32
        var badProfile = Reference.adobeRGB
        for i in 128..<badProfile.count { badProfile[i] = 0xEE }
        for chunk in [badZlib, Self.iccp(badProfile)] {
            let source = try Fixture.source(Self.file([chunk]))
            #expect(source.info.warnings.count == 1)
            #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, Self.stored))
        }
    }

    @Test("Premultiplied output is converted before premultiplying; targetSize output is converted")
    func premultipliedAndScaled() throws {
        let data = Self.file([Self.iccp(Reference.adobeRGB)], colour: [128, 64, 200, 128])
        let premultiplied = try Fixture.source(data, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
        // 146,62,205 at alpha 128: (c·128 + 127) / 255.
        #expect(try premultiplied.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, [73, 31, 103, 128]))
        let scaled = try Fixture.source(
            Self.file([Self.iccp(Reference.adobeRGB)]),
            options: DecodingOptions(targetSize: PixelSize(width: 2, height: 2)))
        let frame = try scaled.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 2, height: 2))
        #expect(frame.bytes == Fixture.fill(2, 2, Self.chromium))
    }

    @Test(
        "Fed in pieces, a tagged file converts as the whole file does, and its info reports the colour",
        arguments: [1, 97])
    func incremental(step: Int) throws {
        let data = Self.file([Self.iccp(Reference.adobeRGB)])
        let feed = IncrementalFeed(APNGCoder(), data: data, step: step)
        #expect(feed.problems == [])
        #expect(feed.framesChecked == 2)
        let source = APNGCoder().makeIncrementalSource(options: .default)
        let snapshot = try source.append(data)
        #expect(snapshot.info?.color.iccProfile?.data == Reference.adobeRGB)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(4, 4, Self.chromium))
        // A corrupt profile: the same warning as the whole file's, stored values.
        var bad = Self.iccp(Reference.adobeRGB)
        bad.1[bad.1.count - 1] ^= 0xFF
        let corrupt = Self.file([bad])
        let badFeed = IncrementalFeed(APNGCoder(), data: corrupt, step: step)
        #expect(badFeed.problems == [])
    }

    @Test("A still PNG and a full-canvas key-frame animation (decoded straight into the caller's buffer, one by one and in bulk) convert")
    func directPaths() throws {
        var still = APNGWriter()
        still.append("IHDR", APNGWriter.ihdr(width: 4, height: 4))
        still.append("iCCP", Self.iccp(Reference.adobeRGB).1)
        still.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rgba: Fixture.fill(4, 4, Self.stored), width: 4, height: 4)))
        still.append("IEND", [])
        #expect(try Fixture.frames(still.data).map(\.bytes) == [Fixture.fill(4, 4, Self.chromium)])
        // Every frame replaces the whole canvas: each is a key frame, decoded without the canvas.
        var w = APNGWriter.animation(
            width: 4, height: 4,
            frames: [
                .solid(width: 4, height: 4, Self.stored), .solid(width: 4, height: 4, Self.stored), .solid(width: 4, height: 4, Self.stored),
            ])
        w.chunks.insert(APNGWriter.Chunk(type: "iCCP", payload: Self.iccp(Reference.adobeRGB).1), at: 1)
        let data = w.data
        let expected = Fixture.fill(4, 4, Self.chromium)
        #expect(try Fixture.frames(data).map(\.bytes) == [expected, expected, expected])
        let check = BulkDecodingCheck { try APNGCoder().makeFrameSource(data: data, options: .default) }
        for threads in [1, 2] {
            #expect(try check.bulk(threads: threads).frames.map(\.pixels.bytes) == [expected, expected, expected])
        }
    }
}
