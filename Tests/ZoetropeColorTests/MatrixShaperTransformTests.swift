import CLCMS2
import Testing
import Zoetrope
import ZoetropeColorTestSupport

@testable import ZoetropeColor

/// The matrix-shaper fast path against lcms2 on the profiles photos and animations carry.
@Suite("Matrix-shaper fast path")
struct MatrixShaperTransformTests {
    static let srgbCurve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
    /// BT.709's camera curve inverted: what a BT.2020 ICC profile's TRC holds.
    static let bt709Curve = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]

    /// Each profile as a file or PNG declares it.
    static let cases: [(String, ColorSource)] = [
        (
            "Display P3",
            .profile(LCMSProfiles.rgb(primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], curve: srgbCurve))
        ),
        ("Adobe RGB (1998)", .profile(LCMSProfiles.adobeRGB())),
        (
            "Rec. 2020",
            .profile(LCMSProfiles.rgb(primaries: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], curve: bt709Curve))
        ),
        (
            "PNG gAMA 1/2.2 + cHRM",
            .chromaticities(
                Chromaticities(
                    whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000, greenX: 30000, greenY: 60000, blueX: 15000,
                    blueY: 6000), gamma: 45455)
        ),
        ("sRGB", .profile(LCMSProfiles.sRGB)),
        ("cICP Display P3, BT.709 transfer", .codePoints(primaries: 12, transfer: 1)),
    ]

    /// The fast path and lcms2's transform for `source`; nil fast path when it does not
    /// apply. `reference` converts RGBA16 with lcms2 in floating point.
    static func transforms(_ source: ColorSource) throws -> (
        fast: MatrixShaperTransform?, lcms: LCMSTransform, reference: ([UInt16]) -> [UInt16]?
    ) {
        let profile = try LCMSProfile.make(source).get()
        defer { cmsCloseProfile(profile) }
        let lcms = try #require(LCMSTransform(from: profile))
        let bytes = LCMSProfile.serialized(profile, description: "test") ?? []
        let reference: ([UInt16]) -> [UInt16]? = { pixels in
            guard let reopened = try? LCMSProfile.open(bytes).get() else { return nil }
            defer { cmsCloseProfile(reopened) }
            return LCMSFloatReference.converted16(pixels, from: reopened)
        }
        return (MatrixShaper.read(profile).flatMap(MatrixShaperTransform.init), lcms, reference)
    }

    /// A 64-level grid in all combinations (0, 4, …, 252, 255 on each channel), every grey,
    /// and the primaries and secondaries at each level; alpha varies and must pass through.
    static let dense: [UInt8] = {
        var levels = Array(stride(from: 0, through: 252, by: 4))
        levels.append(255)
        var pixels = [UInt8]()
        pixels.reserveCapacity((65 * 65 * 65 + 256 * 7) * 4)
        var alpha: UInt8 = 0
        func add(_ r: Int, _ g: Int, _ b: Int) {
            pixels += [UInt8(r), UInt8(g), UInt8(b), alpha]
            alpha &+= 37
        }
        for r in levels { for g in levels { for b in levels { add(r, g, b) } } }
        for v in 0...255 {
            add(v, v, v)
            add(v, 0, 0); add(0, v, 0); add(0, 0, v)
            add(v, v, 0); add(0, v, v); add(v, 0, v)
        }
        return pixels
    }()

    @Test("Within 1 of lcms2 on a 65-level grid, every grey and every primary level; alpha untouched", arguments: 0..<6)
    func eightBit(_ i: Int) throws {
        let (name, source) = Self.cases[i]
        let (fast, lcms, _) = try Self.transforms(source)
        let transform = try #require(fast, "\(name): the fast path does not apply")
        let ours = ColorProbe.converted(Self.dense, by: transform)
        let theirs = ColorProbe.converted(Self.dense, by: lcms)
        #expect(ColorProbe.largestDifference(ours, theirs) <= 1, "\(name)")
        #expect(stride(from: 3, to: ours.count, by: 4).allSatisfy { ours[$0] == Self.dense[$0] }, "\(name): alpha changed")
        // The conversion does something, except sRGB's, which is the identity within 1.
        if name == "sRGB" {
            #expect(ColorProbe.largestDifference(ours, Self.dense) <= 1)
        } else {
            #expect(ours != Self.dense, "\(name)")
        }
    }

    @Test("RGBA16 within 64 of 65,535 of lcms2's floating-point result, alpha untouched", arguments: 0..<6)
    func sixteenBit(_ i: Int) throws {
        let (name, source) = Self.cases[i]
        let (fast, _, reference) = try Self.transforms(source)
        let transform = try #require(fast, "\(name): the fast path does not apply")
        var pixels = Self.dense.map { UInt16($0) &* 257 }
        // Values between the 8-bit ones too.
        for j in stride(from: 0, to: pixels.count, by: 4) { pixels[j] = pixels[j] ^ UInt16(j & 0xff) }
        let ours = ColorProbe.converted16(pixels, by: transform)
        let theirs = try #require(reference(pixels))
        let difference = ColorProbe.largestDifference(ours, theirs)
        var worst = 0
        for j in 0..<ours.count where abs(Int(ours[j]) - Int(theirs[j])) == difference {
            worst = j
            break
        }
        let at: Int = worst - worst % 4
        #expect(
            difference <= 64,
            "\(name): \(difference) at \(Array(pixels[at..<at + 4])): \(Array(ours[at..<at + 4])) against \(Array(theirs[at..<at + 4]))")
        #expect(stride(from: 3, to: ours.count, by: 4).allSatisfy { ours[$0] == pixels[$0] }, "\(name): alpha changed")
    }

    @Test("The cache hands out the fast path for a matrix-shaper profile, and nil for sRGB")
    func cacheChoosesTheFastPath() throws {
        let cache = TransformCache(capacity: 8, byteLimit: 1 << 20)
        for (name, source) in Self.cases {
            let transform = try cache.transform(for: source)
            if name == "sRGB" {
                #expect(transform == nil)
            } else {
                #expect(transform is MatrixShaperTransform, "\(name)")
            }
        }
    }

    @Test("A profile with an AToB table stays with lcms2 (which prefers the table)")
    func lutProfileStaysWithLCMS() throws {
        let profile = LCMSProfiles.rgbProfile(primaries: LCMSProfiles.adobePrimaries, curve: [563.0 / 256])
        defer { cmsCloseProfile(profile) }
        // An AToB0 of one CLUT stage mapping every colour to mid grey in the PCS.
        let pipeline = try #require(cmsPipelineAlloc(nil, 3, 3))
        defer { cmsPipelineFree(pipeline) }
        var grid = [cmsUInt16Number](repeating: 0x4000, count: 2 * 2 * 2 * 3)
        let clut = try #require(cmsStageAllocCLut16bit(nil, 2, 3, 3, &grid))
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil)) != 0)
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_END, clut) != 0)
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil)) != 0)
        #expect(cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0)
        #expect(MatrixShaper.read(profile) == nil)
        let bytes = LCMSProfiles.save(profile)
        try #require(bytes.count > 132)
        let transform = try TransformCache(capacity: 8, byteLimit: 1 << 20).transform(for: .profile(bytes))
        #expect(transform is LCMSTransform)
    }
}
