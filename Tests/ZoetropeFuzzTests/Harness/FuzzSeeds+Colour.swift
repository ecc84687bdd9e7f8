import CLCMS2
import CTurboJPEG
import Foundation
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeTestSupport
import ZoetropeWebP

@testable import Zoetrope
@testable import ZoetropeColor

/// Seeds that carry colour: inputs of the `colour` target (profiles the project writes,
/// malformed copies of them, code points, `gAMA`/`cHRM`), and tagged files for the coder
/// targets (JPEG APP2 `ICC_PROFILE`, PNG `iCCP`, WebP `ICCP`, AVIF `colr`).
extension FuzzSeeds {
    /// Profiles written by lcms2 through the project's own code: what `ColorManagement`
    /// makes of code points and `gAMA`/`cHRM` declarations, and a sampled curve.
    static func profiles() -> [(name: String, bytes: [UInt8])] {
        func declared(_ color: ColorInfo) -> [UInt8]? {
            let made = try? ColorManagement.declaration(color, writableBy: .iccProfile, precedence: .codePointsFirst)
            return made?.iccProfile?.data
        }
        func points(_ primaries: UInt16, _ transfer: UInt16) -> ColorInfo {
            ColorInfo(codePoints: ColorCodePoints(primaries: primaries, transfer: transfer, matrix: 0, fullRange: true))
        }
        // Adobe RGB (1998)'s primaries, D65, as PNG cHRM stores them (×100,000), gamma 1/2.2.
        let adobe = Chromaticities(
            whiteX: 31_270, whiteY: 32_900, redX: 64_000, redY: 33_000, greenX: 21_000, greenY: 71_000, blueX: 15_000, blueY: 6_000)
        let candidates: [(String, [UInt8]?)] = [
            ("fixture-rgb-gamma22.icc", ColorFixtures.iccProfile.data),
            ("display-p3.icc", declared(points(12, 13))),
            ("rec2020-bt709.icc", declared(points(9, 1))),
            ("dci-p3-gamma28.icc", declared(points(11, 5))),
            ("linear-srgb.icc", declared(points(1, 8))),
            ("adobe-rgb-chrm.icc", declared(ColorInfo(gamma: 45_455, chromaticities: adobe))),
            ("gamma18.icc", declared(ColorInfo(gamma: 55_556))),
            ("sampled-curve.icc", sampledCurveProfile()),
        ]
        return candidates.compactMap { name, bytes in bytes.map { (name, $0) } }
    }

    /// An RGB profile whose three curves are one sampled table that is not monotonic (a
    /// spike between two probe levels), which lcms2 keeps as it is.
    static func sampledCurveProfile() -> [UInt8]? {
        let samples: [UInt16] = (0..<64).map { i in i == 37 ? 65_535 : UInt16(i * 1040) }
        guard let curve = cmsBuildTabulatedToneCurve16(nil, UInt32(samples.count), samples) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        guard let profile = LCMSProfile.rgb(white: (0.3127, 0.329), primaries: [(0.64, 0.33), (0.3, 0.6), (0.15, 0.06)], tone: curve)
        else { return nil }
        defer { cmsCloseProfile(profile) }
        return LCMSProfile.serialized(profile, description: "Zoetrope fuzz sampled curve")
    }

    /// Copies of `profile` broken the ways a crafted file breaks one.
    static func malformed(_ profile: [UInt8]) -> [(name: String, bytes: [UInt8])] {
        func patched(_ at: Int, _ value: UInt32) -> [UInt8] {
            var copy = profile
            guard at + 4 <= copy.count else { return copy }
            for k in 0..<4 { copy[at + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
            return copy
        }
        // Header: size at 0, colour space at 16, PCS at 20, "acsp" at 36; the tag count at
        // 128, then 12-byte entries (signature, offset, size).
        return [
            ("truncated.icc", Array(profile.prefix(profile.count / 2))),
            ("header-only.icc", Array(profile.prefix(132))),
            ("size-too-big.icc", patched(0, UInt32(profile.count) * 4)),
            ("grey-space.icc", patched(16, 0x4752_4159)),  // 'GRAY'
            ("cmyk-space.icc", patched(16, 0x434D_594B)),  // 'CMYK'
            ("lab-pcs.icc", patched(20, 0x4C61_6220)),  // 'Lab '
            ("tag-count-huge.icc", patched(128, 0xFFFF_FFFF)),
            ("tag-offset-past-end.icc", patched(136, UInt32(profile.count) + 16)),
            ("tag-size-huge.icc", patched(140, 0x7FFF_FFF0)),
            ("second-tag-overlaps-header.icc", patched(148, 4)),
        ]
    }

    /// Inputs of the `colour` target (`FuzzColour`): the first byte picks the declaration.
    static func colour() -> [Seed] {
        var seeds: [Seed] = []
        let profiles = profiles()
        for (name, bytes) in profiles {
            seeds.append(Seed(family: "colour", name: name, data: Data([0] + bytes)))
        }
        if let p3 = profiles.first(where: { $0.name == "display-p3.icc" })?.bytes {
            for (name, bytes) in malformed(p3) { seeds.append(Seed(family: "colour", name: name, data: Data([0] + bytes))) }
        }
        // Code points: Display P3, BT.2020 with PQ (refused), BT.709 primaries linear, EBU
        // 3213 with gamma 2.2, unknown values.
        for (primaries, transfer) in [(12, 13), (9, 16), (1, 8), (22, 4), (200, 300)] as [(UInt16, UInt16)] {
            let bytes = [2, UInt8(primaries >> 8), UInt8(primaries & 0xff), UInt8(transfer >> 8), UInt8(transfer & 0xff)]
            seeds.append(Seed(family: "colour", name: "code-points-\(primaries)-\(transfer)", data: Data(bytes)))
        }
        // gAMA alone (1.0), gAMA with Display P3's cHRM, and with degenerate chromaticities.
        func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        let p3: [UInt32] = [31_270, 32_900, 68_000, 32_000, 26_500, 69_000, 15_000, 6_000]
        seeds.append(Seed(family: "colour", name: "gama-linear", data: Data([3] + be32(100_000))))
        seeds.append(Seed(family: "colour", name: "gama-chrm-p3", data: Data([3] + be32(45_455) + p3.flatMap(be32))))
        seeds.append(Seed(family: "colour", name: "gama-chrm-degenerate", data: Data([3] + be32(45_455) + [UInt8](repeating: 0, count: 32))))
        return seeds
    }

    /// Tagged files for the coder targets: a JPEG with a Display P3 profile in one APP2
    /// chunk and with a malformed one split over two, a PNG with an `iCCP`, a WebP with an
    /// `ICCP` and an AVIF with a `colr` profile (each Display P3, from the project's encoders).
    static func taggedFiles() -> [Seed] {
        let profiles = profiles()
        guard let p3 = profiles.first(where: { $0.name == "display-p3.icc" })?.bytes else { return [] }
        var seeds: [Seed] = []
        let rgba = (0..<(13 * 9)).flatMap { (i: Int) -> [UInt8] in [UInt8(i % 13 * 19), UInt8(i / 13 * 28), 90, 255] }
        let baseline = compressJPEG(rgba, TJPF_RGBA, TJSAMP_420, flags: 0)
        func app2(_ chunk: [UInt8], sequence: UInt8, of count: UInt8) -> [UInt8] {
            let payload = Array("ICC_PROFILE".utf8) + [0, sequence, count] + chunk
            return [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xff)] + payload
        }
        seeds.append(
            Seed(
                family: "jpeg", name: "fixture-display-p3.jpg", data: baseline.prefix(2) + Data(app2(p3, sequence: 1, of: 1)) + baseline.dropFirst(2))
        )
        let broken = malformed(p3).first { $0.name == "tag-offset-past-end.icc" }?.bytes ?? p3
        let half = broken.count / 2
        let split = app2(Array(broken[half...]), sequence: 2, of: 2) + app2(Array(broken[..<half]), sequence: 1, of: 2)
        seeds.append(
            Seed(family: "jpeg", name: "fixture-broken-profile-two-chunks.jpg", data: baseline.prefix(2) + Data(split) + baseline.dropFirst(2)))

        let tagged = EncodingOptions(loopCount: .plays(2), color: ColorInfo(iccProfile: ICCProfile(data: p3)))
        let size = PixelSize(width: 8, height: 6)
        if let png = try? APNGEncoder().encode(gradientFrames(), canvasSize: size, options: tagged) {
            seeds.append(Seed(family: "png", name: "fixture-display-p3.png", data: png))
        }
        if let webp = try? WebPEncoder(method: 0).encode(gradientFrames(), canvasSize: size, options: tagged) {
            seeds.append(Seed(family: "webp", name: "fixture-display-p3.webp", data: webp))
        }
        if let avif = try? AVIFEncoder(speed: 10).encode(gradientFrames(), canvasSize: size, options: tagged) {
            seeds.append(Seed(family: "avif", name: "fixture-display-p3.avif", data: avif))
        }
        return seeds
    }
}
