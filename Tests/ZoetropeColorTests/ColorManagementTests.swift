import Testing
import Zoetrope
import ZoetropeColorTestSupport

@testable import ZoetropeColor

/// Profiles made with lcms2 directly (`LCMSProfiles`), independently of ZoetropeColor's own.
enum TestProfiles {
    static let adobeRGB = LCMSProfiles.adobeRGB(description: "Test Adobe RGB (1998)")
    static var sRGB: [UInt8] { LCMSProfiles.sRGB }
}

@Suite("ColorManagement")
struct ColorManagementTests {
    private func convert(_ rgba: [UInt8], _ color: ColorInfo, precedence: ColorPrecedence = .profileFirst) throws -> [UInt8] {
        var pixels = rgba
        let transform = try ColorManagement.transform(for: color, precedence: precedence)
        if let transform {
            pixels.withUnsafeMutableBytes { transform.convert($0.baseAddress!, width: rgba.count / 4, height: 1, bytesPerRow: rgba.count) }
        }
        return pixels
    }

    @Test("Adobe RGB 128,64,200 converts to 146,62,205 (Chromium's value); alpha is untouched")
    func adobeRGB() throws {
        let out = try convert([128, 64, 200, 255, 128, 64, 200, 7], ColorInfo(iccProfile: ICCProfile(data: TestProfiles.adobeRGB)))
        #expect(out == [146, 62, 205, 255, 146, 62, 205, 7])
    }

    @Test("Nothing declared, PNG sRGB, sRGB code points and an sRGB ICC profile need no transform")
    func srgbNeedsNothing() throws {
        #expect(try ColorManagement.transform(for: .unspecified) == nil)
        #expect(try ColorManagement.transform(for: ColorInfo(srgbRenderingIntent: 0)) == nil)
        #expect(
            try ColorManagement.transform(for: ColorInfo(codePoints: ColorCodePoints(primaries: 1, transfer: 13, matrix: 0, fullRange: true))) == nil)
        #expect(try ColorManagement.transform(for: ColorInfo(iccProfile: ICCProfile(data: TestProfiles.sRGB))) == nil)
        // gAMA alone within 5 % of 1/2.2, or cHRM alone: sRGB (Chromium's rules).
        for gamma: UInt32 in [43182, 45455, 47727] {
            #expect(try ColorManagement.transform(for: ColorInfo(gamma: gamma)) == nil, "gAMA \(gamma)")
        }
        let c = Chromaticities(
            whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000,
            greenX: 21000, greenY: 71000, blueX: 15000, blueY: 6000)
        #expect(try ColorManagement.transform(for: ColorInfo(chromaticities: c)) == nil)
    }

    /// Each channel within 1 of `expected`.
    private func near(_ out: [UInt8], _ expected: [UInt8]) -> Bool {
        out.count == expected.count && zip(out, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    @Test("gAMA alone outside 5 % of 1/2.2 converts with sRGB's primaries, within 1 of Chromium 156's canvas")
    func gammaAlone() throws {
        // Chromium's values: Scripts/chromium-colour.py, canvas pixels of a tagged 1-frame APNG.
        let linear = try convert([130, 130, 255, 255, 65, 65, 255, 255, 33, 217, 255, 9], ColorInfo(gamma: 100_000))
        #expect(near(linear, [189, 189, 255, 255, 138, 138, 255, 255, 101, 238, 255, 9]), "\(linear)")
        let g18 = try convert([130, 130, 255, 255, 65, 65, 255, 255, 33, 217, 255, 255], ColorInfo(gamma: 55556))
        #expect(near(g18, [148, 148, 255, 255, 82, 82, 255, 255, 44, 224, 255, 255]), "\(g18)")
        // Just outside the band on each side.
        let below = try convert([36, 146, 219, 255], ColorInfo(gamma: 43181))
        #expect(near(below, [27, 143, 218, 255]) && below != [36, 146, 219, 255], "\(below)")
        let above = try convert([36, 146, 219, 255], ColorInfo(gamma: 47728))
        #expect(near(above, [35, 151, 222, 255]) && above != [36, 146, 219, 255], "\(above)")
        #expect(throws: ColorConversionError.self) { try ColorManagement.transform(for: ColorInfo(gamma: 0)) }
    }

    @Test("BT.709's transfer (1, 6, 14, 15) decodes with BT.1886's gamma 2.4, within 1 of Chromium 156")
    func bt709Transfer() throws {
        for transfer: UInt16 in [1, 6, 14, 15] {
            let color = ColorInfo(codePoints: ColorCodePoints(primaries: 9, transfer: transfer, matrix: 0, fullRange: true))
            let out = try convert([65, 65, 255, 255, 130, 130, 255, 255, 33, 217, 255, 255], color)
            #expect(near(out, [0, 48, 255, 255, 105, 121, 255, 255, 0, 226, 255, 255]), "transfer \(transfer): \(out)")
        }
        // BT.709 primaries with gamma 2.4 against sRGB's curve: dark greys come out darker.
        let grey = try convert([64, 64, 64, 255], ColorInfo(codePoints: ColorCodePoints(primaries: 1, transfer: 1, matrix: 0, fullRange: true)))
        #expect(grey[0] == grey[1] && grey[1] == grey[2] && grey[0] < 64, "\(grey)")
    }

    @Test("Display P3 code points (12/13) convert: P3 red is outside sRGB and clips")
    func displayP3() throws {
        let p3 = ColorInfo(codePoints: ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true))
        let out = try convert([255, 0, 0, 255, 128, 128, 128, 255], p3)
        #expect(out[0] == 255 && out[1] == 0 && out[2] == 0)  // clipped at the sRGB gamut
        #expect(Array(out[4...]) == [128, 128, 128, 255])  // grey stays grey (same white, same curve)
        let mid = try convert([200, 100, 50, 255], p3)
        #expect(mid != [200, 100, 50, 255])
    }

    @Test("PQ and HLG are not tone-mapped: an error saying the values stay as stored")
    func hdr() {
        for transfer: UInt16 in [16, 18] {
            let color = ColorInfo(codePoints: ColorCodePoints(primaries: 9, transfer: transfer, matrix: 0, fullRange: true))
            #expect(throws: ColorConversionError.self) { try ColorManagement.transform(for: color) }
        }
    }

    @Test("A corrupt profile is an error; prepare turns it into a warning and no transform")
    func corrupt() {
        var bad = TestProfiles.adobeRGB
        bad.replaceSubrange(128..<bad.count, with: [UInt8](repeating: 0xEE, count: bad.count - 128))
        let color = ColorInfo(iccProfile: ICCProfile(data: bad))
        #expect(throws: ColorConversionError.self) { try ColorManagement.transform(for: color) }
        var info = AnimationInfo(
            format: .png, canvasSize: PixelSize(width: 1, height: 1), frameDurations: [.zero],
            loopCount: .once, storedLoopValue: nil, color: color)
        #expect(ColorManagement.prepare(&info, options: .default) == nil)
        #expect(info.warnings.count == 1)
        var stored = info
        stored.warnings = []
        #expect(ColorManagement.prepare(&stored, options: DecodingOptions(colorOutput: .stored)) == nil)
        #expect(stored.warnings.isEmpty)
    }

    @Test("Precedence: PNG prefers code points over a profile, AVIF the profile")
    func precedence() throws {
        let both = ColorInfo(
            iccProfile: ICCProfile(data: TestProfiles.adobeRGB),
            codePoints: ColorCodePoints(primaries: 1, transfer: 13, matrix: 0, fullRange: true))
        #expect(try convert([128, 64, 200, 255], both, precedence: .codePointsFirst) == [128, 64, 200, 255])
        #expect(try convert([128, 64, 200, 255], both, precedence: .profileFirst) == [146, 62, 205, 255])
    }

    @Test("cHRM with gAMA converts; the profile's description is read")
    func chrmAndDescription() throws {
        let c = Chromaticities(
            whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000,
            greenX: 21000, greenY: 71000, blueX: 15000, blueY: 6000)
        let out = try convert([128, 64, 200, 255], ColorInfo(gamma: 45471, chromaticities: c))  // 1/2.19921875
        #expect(out == [146, 62, 205, 255])
        #expect(ICCProfile(data: TestProfiles.adobeRGB).profileDescription == "Test Adobe RGB (1998)")
        #expect(ICCProfile(data: [1, 2, 3]).profileDescription == nil)
    }

    @Test("A declaration the target cannot write becomes an ICC profile that converts the same, within 1")
    func declarationAsProfile() throws {
        let webp: EmbeddedParts = [.iccProfile, .exif, .xmp]
        let c = Chromaticities(
            whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000,
            greenX: 21000, greenY: 71000, blueX: 15000, blueY: 6000)
        let cases: [(ColorInfo, String)] = [
            (ColorInfo(gamma: 55556), "PNG gAMA 55556"),
            (ColorInfo(gamma: 45471, chromaticities: c), "PNG cHRM with gAMA 45471"),
            (ColorInfo(codePoints: ColorCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true)), "H.273 primaries 12, transfer 13"),
            (ColorInfo(codePoints: ColorCodePoints(primaries: 9, transfer: 1, matrix: 0, fullRange: true)), "H.273 primaries 9, transfer 1"),
        ]
        var pixels: [UInt8] = []
        for r in stride(from: 0, through: 255, by: 51) {
            for g in stride(from: 0, through: 255, by: 51) {
                for b in stride(from: 0, through: 255, by: 51) { pixels += [UInt8(r), UInt8(g), UInt8(b), 200] }
            }
        }
        for (color, description) in cases {
            let kept = try ColorManagement.declaration(color, writableBy: webp, precedence: .codePointsFirst)
            let profile = try #require(kept.iccProfile, "\(description)")
            #expect(kept == ColorInfo(iccProfile: profile))
            #expect(profile.profileDescription == description)
            #expect(near(try convert(pixels, kept), try convert(pixels, color)), "\(description)")
            // A target that writes the declaration itself, or no profile, gets it as it is.
            #expect(try ColorManagement.declaration(color, writableBy: .all, precedence: .codePointsFirst) == color)
            #expect(try ColorManagement.declaration(color, writableBy: [.exif], precedence: .codePointsFirst) == color)
        }
        // A profile, sRGB values, and what a profile cannot say.
        let adobe = ColorInfo(iccProfile: ICCProfile(data: TestProfiles.adobeRGB))
        #expect(try ColorManagement.declaration(adobe, writableBy: webp, precedence: .profileFirst) == adobe)
        #expect(try ColorManagement.declaration(ColorInfo(gamma: 45455), writableBy: webp, precedence: .codePointsFirst) == ColorInfo(gamma: 45455))
        let pq = ColorInfo(codePoints: ColorCodePoints(primaries: 9, transfer: 16, matrix: 0, fullRange: true))
        #expect(throws: ColorConversionError.self) { try ColorManagement.declaration(pq, writableBy: webp, precedence: .profileFirst) }
    }
}
