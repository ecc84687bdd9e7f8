import Zoetrope
import ZoetropeColor
import ZoetropeColorTestSupport

// zoetrope-colour-bench: for each declaration Scripts/bench-colour.sh measures, the
// matrix-shaper fast path against lcms2 over every 8-bit RGB value (2^24), and both
// conversions' speed on one thread (RGBA8 in place, a 1024×768 frame, CPU time). One JSON
// line per declaration.
//
//   zoetrope-colour-bench [--seconds S]

let seconds =
    CommandLine.arguments.firstIndex(of: "--seconds").flatMap { i in
        i + 1 < CommandLine.arguments.count ? Double(CommandLine.arguments[i + 1]) : nil
    } ?? 0.5

let p3Primaries = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
let srgbCurve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
let bt709Curve = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
let pngChromaticities = Chromaticities(
    whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000, greenX: 30000, greenY: 60000, blueX: 15000, blueY: 6000)
let cases: [(String, ColorInfo, ColorPrecedence)] = [
    ("Display P3 (ICC)", ColorInfo(iccProfile: ICCProfile(data: LCMSProfiles.rgb(primaries: p3Primaries, curve: srgbCurve))), .profileFirst),
    ("Adobe RGB (1998) (ICC)", ColorInfo(iccProfile: ICCProfile(data: LCMSProfiles.adobeRGB())), .profileFirst),
    (
        "Rec. 2020 (ICC, BT.709 curve)",
        ColorInfo(
            iccProfile: ICCProfile(data: LCMSProfiles.rgb(primaries: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], curve: bt709Curve))),
        .profileFirst
    ),
    ("PNG gAMA 1/2.2 + cHRM", ColorInfo(gamma: 45455, chromaticities: pngChromaticities), .codePointsFirst),
    ("sRGB (ICC)", ColorInfo(iccProfile: ICCProfile(data: LCMSProfiles.sRGB)), .profileFirst),
    (
        "cICP Display P3 / BT.709 transfer", ColorInfo(codePoints: ColorCodePoints(primaries: 12, transfer: 1, matrix: 0, fullRange: true)),
        .codePointsFirst
    ),
]

for (name, color, precedence) in cases {
    guard let r = FastPathReport.measure(color, precedence: precedence, seconds: seconds) else {
        print("{\"profile\":\"\(name)\",\"fastPath\":false}")
        continue
    }
    let fast = (r.fastMegapixelsPerSecond * 10).rounded() / 10, lcms = (r.lcmsMegapixelsPerSecond * 10).rounded() / 10
    print(
        "{\"profile\":\"\(name)\",\"fastPath\":\(r.usesFastPath),\"maxDifference\":\(r.largestDifference),"
            + "\"differing\":\(r.differingValues),\"values\":16777216,\"fastMPs\":\(fast),\"lcmsMPs\":\(lcms)}")
}
