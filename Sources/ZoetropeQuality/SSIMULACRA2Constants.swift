import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The constants and colour helpers of SSIMULACRA2 (SSIMULACRA2Workspace uses them).

let kC2: Float = 0.0009
let kNumScales = 6

// Opsin absorbance matrix and bias of JPEG XL's XYB.
let kM00: Float = 0.30, kM01: Float = 1 - 0.078 - 0.30, kM02: Float = 0.078
let kM10: Float = 0.23, kM11: Float = 1 - 0.078 - 0.23, kM12: Float = 0.078
let kM20: Float = 0.24342268924547819, kM21: Float = 0.20476744424496821
let kM22: Float = 1.0 - 0.24342268924547819 - 0.20476744424496821
let kBias: Float = 0.0037930732552754493
let kBiasRoot: Float = cubeRoot(kBias)

// libjxl blurs with Charalampidis' recursive Gaussian (sigma 1.5, N = 5). Its impulse response is
// exactly finite, sum over k in {1,3,5} of beta_k * cos(k * pi * j / 10), nonzero only for |j| <= 4,
// so the same filter is applied here as a separable 9-tap kernel with zeros outside the image.
let kK0: Float = 0.2646211054881985
let kK1: Float = 0.2129285920104222
let kK2: Float = 0.10933537277746033
let kK3: Float = 0.03601111465836443
let kK4: Float = 0.009414367809653762

// Per channel (X, Y, B), per scale, per norm (1, 4): SSIM, ringing, blurring.
let kWeights: [Double] = [
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0,
    0.0, 0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
    0.0, 0.0016406437456599754, 0.0, 1.8422455520539298, 11.441172603757666, 0.0,
    0.0007989109436015163, 0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
    0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,
    0.0004550992113792063, 0.0, 0.0, 0.0013648766163243398, 0.0, 0.0,
    0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
    0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
    225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
    176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
    0.0, 0.0, 0.0, 34.77906344483772, 44.835625328877896, 0.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0,
    0.0, 0.0, 0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
    0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926, 0.0,
    95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493, 171.2667255897307, 0.9807858872435379,
    0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
]

func srgbToLinear(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
}

/// Linear value of an sRGB byte with alpha `a` over grey `bg`. libjxl blends the encoded values
/// (straight alpha) before linearising, in Float.
func linearValue(_ v: UInt8, alpha a: UInt8, background bg: Float?) -> Float {
    guard let bg, a != 255 else { return Float(srgbToLinear(Double(v) / 255)) }
    let alpha = Float(a) / 255
    let blended = alpha * (Float(v) / 255) + (1 - alpha) * bg
    return Float(srgbToLinear(Double(blended)))
}

let kOpaqueTable: [Float] = (0..<256).map { linearValue(UInt8($0), alpha: 255, background: nil) }

/// Cube root for the XYB range (x >= kBias > 0), equal to Float(cbrt(Double(x))) there and about
/// twice as fast as cbrtf.
@inline(__always)
func cubeRoot(_ x: Float) -> Float {
    let d = Double(x)
    var r = Double(Float(bitPattern: x.bitPattern / 3 &+ 0x2A51_37A0))  // within a few percent
    for _ in 0..<2 {  // Halley steps: cubic convergence
        let r3 = r * r * r
        r = r * (r3 + 2 * d) / (2 * r3 + d)
    }
    return Float(r)
}
