import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// State for one image pair. Rows stream through nine-row rings, so besides the input bytes only
/// the half-resolution linear planes (for the smaller scales) are stored whole.
final class SSIMULACRA2Workspace {
    let ref: UnsafePointer<UInt8>
    let dist: UnsafePointer<UInt8>
    let width: Int
    let height: Int

    // Linear RGB from scale 1 on, three planes per image at fixed offsets; downsampled in place.
    let linCapacity: Int
    let lin1: UnsafeMutablePointer<Float>
    let lin2: UnsafeMutablePointer<Float>
    // Positive XYB rows: planes X1 Y1 B1 X2 Y2 B2, each 9 rows of `width`.
    let xybRing: UnsafeMutablePointer<Float>
    // Horizontally blurred rows: per channel, mu1 mu2 s11 s22 s12 inputs, each 9 rows of `width`.
    let hRing: UnsafeMutablePointer<Float>
    // Fully blurred current row of one channel: mu1 mu2 s11 s22 s12.
    let vRows: UnsafeMutablePointer<Float>
    // Zero-padded horizontal inputs (4 zeros each side): x1 x2 x1² x2² x1·x2.
    let padded: UnsafeMutablePointer<Float>
    let paddedStride: Int
    // Stands in for rows above and below the image.
    let zeroRow: UnsafeMutablePointer<Float>
    // Per-pixel SSIM error and edge ratio of the current row.
    let errorRow: UnsafeMutablePointer<Double>
    // Byte -> linear, indexed by alpha << 8 | value once a background is set.
    var table: [Float] = []
    let alphaPresent: [Bool]

    static let ringRows = 9

    init(reference: UnsafePointer<UInt8>, distorted: UnsafePointer<UInt8>, width: Int, height: Int, translucent: Bool) {
        ref = reference
        dist = distorted
        self.width = width
        self.height = height
        var present = [Bool](repeating: false, count: 256)
        for i in 0..<(translucent ? width * height : 0) {
            present[Int(reference[4 * i + 3])] = true
            present[Int(distorted[4 * i + 3])] = true
        }
        alphaPresent = present
        linCapacity = ((width + 1) / 2) * ((height + 1) / 2)
        paddedStride = width + 8
        func make(_ count: Int) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: 0, count: count)
            return p
        }
        lin1 = make(3 * linCapacity)
        lin2 = make(3 * linCapacity)
        xybRing = make(6 * Self.ringRows * width)
        hRing = make(15 * Self.ringRows * width)
        vRows = make(5 * width)
        padded = make(5 * paddedStride)
        zeroRow = make(width)
        errorRow = UnsafeMutablePointer<Double>.allocate(capacity: 2 * width)
        errorRow.initialize(repeating: 0, count: 2 * width)
    }

    deinit {
        for p in [lin1, lin2, xybRing, hRing, vRows, padded, zeroRow] { p.deallocate() }
        errorRow.deallocate()
    }

    func run(background: Float?) -> Double {
        if let bg = background {
            // Only the alpha values that occur, so small images don't pay for all 65536 entries.
            table = [Float](repeating: 0, count: 65536)
            for a in 0..<256 where alphaPresent[a] {
                for v in 0..<256 {
                    table[a << 8 | v] = linearValue(UInt8(v), alpha: UInt8(a), background: bg)
                }
            }
        } else {
            table = kOpaqueTable
        }

        // 18 averages per scale: 6 SSIM (channel x norm), then 12 edge (channel x 4).
        var averages: [[Double]] = []
        var w = width
        var h = height
        for scale in 0..<kNumScales {
            // As in libjxl, the size test sees the previous scale, so the last scale may be under 8 pixels.
            if w < 8 || h < 8 { break }
            if scale == 1 {
                downsampleBytes(ref, into: lin1, alphaTable: background != nil)
                downsampleBytes(dist, into: lin2, alphaTable: background != nil)
            } else if scale > 1 {
                for c in 0..<3 {
                    downsample(lin1 + c * linCapacity, w, h)
                    downsample(lin2 + c * linCapacity, w, h)
                }
            }
            if scale > 0 {
                w = (w + 1) / 2
                h = (h + 1) / 2
            }
            averages.append(scaleAverages(w, h, fromBytes: scale == 0, alphaTable: background != nil))
        }
        return finalScore(averages)
    }

    // MARK: Linear input

    /// Scale 1 straight from the bytes: 2×2 means of linear values, repeating the last row/column.
    private func downsampleBytes(_ rgba: UnsafePointer<UInt8>, into lin: UnsafeMutablePointer<Float>, alphaTable: Bool) {
        let ow = (width + 1) / 2
        let oh = (height + 1) / 2
        table.withUnsafeBufferPointer { t in
            func linear(_ i: Int, _ c: Int) -> Float {
                alphaTable ? t[Int(rgba[4 * i + 3]) << 8 | Int(rgba[4 * i + c])] : t[Int(rgba[4 * i + c])]
            }
            for oy in 0..<oh {
                let y0 = 2 * oy
                let y1 = min(y0 + 1, height - 1)
                for ox in 0..<ow {
                    let x0 = 2 * ox
                    let x1 = min(x0 + 1, width - 1)
                    for c in 0..<3 {
                        let sum =
                            linear(y0 * width + x0, c) + linear(y0 * width + x1, c)
                            + linear(y1 * width + x0, c) + linear(y1 * width + x1, c)
                        lin[c * linCapacity + oy * ow + ox] = sum * 0.25
                    }
                }
            }
        }
    }

    /// 2×2 box average, repeating the last row/column for odd sizes. Each output lands at or before
    /// the inputs it still needs, so this works in place.
    private func downsample(_ p: UnsafeMutablePointer<Float>, _ w: Int, _ h: Int) {
        let ow = (w + 1) / 2
        let oh = (h + 1) / 2
        for oy in 0..<oh {
            let y0 = 2 * oy
            let y1 = min(y0 + 1, h - 1)
            for ox in 0..<ow {
                let x0 = 2 * ox
                let x1 = min(x0 + 1, w - 1)
                let sum = p[y0 * w + x0] + p[y0 * w + x1] + p[y1 * w + x0] + p[y1 * w + x1]
                p[oy * ow + ox] = sum * 0.25
            }
        }
    }

    // MARK: Rows

    @inline(__always)
    private func ringRow(_ plane: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
        xybRing + (plane * Self.ringRows + y % Self.ringRows) * width
    }

    @inline(__always)
    private func hRow(_ plane: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
        hRing + (plane * Self.ringRows + y % Self.ringRows) * width
    }

    /// Positive XYB of row y for both images, then its horizontal blurs.
    private func produceRow(_ y: Int, _ w: Int, fromBytes: Bool, alphaTable: Bool) {
        for image in 0..<2 {
            let ox = ringRow(image * 3, y), oy = ringRow(image * 3 + 1, y), ob = ringRow(image * 3 + 2, y)
            // Linear RGB of the row goes into the three XYB rows first, then is converted in place.
            if fromBytes {
                let rgba = (image == 0 ? ref : dist) + 4 * y * w
                table.withUnsafeBufferPointer { t in
                    for x in 0..<w {
                        let px = rgba + 4 * x
                        let a = alphaTable ? Int(px[3]) << 8 : 0
                        ox[x] = t[a | Int(px[0])]
                        oy[x] = t[a | Int(px[1])]
                        ob[x] = t[a | Int(px[2])]
                    }
                }
            } else {
                let lin = image == 0 ? lin1 : lin2
                ox.update(from: lin + y * w, count: w)
                oy.update(from: lin + linCapacity + y * w, count: w)
                ob.update(from: lin + 2 * linCapacity + y * w, count: w)
            }
            toPositiveXYB(ox, oy, ob, w)
        }
        for c in 0..<3 {
            let p1 = ringRow(c, y), p2 = ringRow(3 + c, y)
            let s = paddedStride
            let a = padded + 4, b = a + s, aa = b + s, bb = aa + s, ab = bb + s
            for x in 0..<w {
                let u = p1[x], v = p2[x]
                a[x] = u
                b[x] = v
                aa[x] = u * u
                bb[x] = v * v
                ab[x] = u * v
            }
            for q in 0..<5 {
                (padded + q * s + 4 + w).update(repeating: 0, count: 4)
                horizontalBlur(padded + q * s, into: hRow(c * 5 + q, y), w)
            }
        }
    }

    /// Linear RGB rows to positive XYB, in place.
    private func toPositiveXYB(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>, _ w: Int
    ) {
        for x in 0..<w {
            let rx = r[x], gx = g[x], bx = b[x]
            r[x] = max(kM00 * rx + kM01 * gx + kM02 * bx + kBias, 0)
            g[x] = max(kM10 * rx + kM11 * gx + kM12 * bx + kBias, 0)
            b[x] = max(kM20 * rx + kM21 * gx + kM22 * bx + kBias, 0)
        }
        for x in 0..<w { r[x] = cubeRoot(r[x]) - kBiasRoot }
        for x in 0..<w { g[x] = cubeRoot(g[x]) - kBiasRoot }
        for x in 0..<w { b[x] = cubeRoot(b[x]) - kBiasRoot }
        for x in 0..<w {
            let c0 = r[x], c1 = g[x], c2 = b[x]
            let xv = 0.5 * (c0 - c1)
            let yv = 0.5 * (c0 + c1)
            // Rescaled so each channel lies roughly in 0...1, with B replaced by B - Y.
            r[x] = xv * 14 + 0.42
            g[x] = yv + 0.01
            b[x] = (c2 - yv) + 0.55
        }
    }

    /// 9-tap pass over a row stored at p[4 ..< 4 + w] with 4 zeros either side.
    @inline(__always)
    private func horizontalBlur(_ p: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>, _ w: Int) {
        for x in 0..<w {
            var s = kK0 * p[x + 4]
            s += kK1 * (p[x + 3] + p[x + 5])
            s += kK2 * (p[x + 2] + p[x + 6])
            s += kK3 * (p[x + 1] + p[x + 7])
            s += kK4 * (p[x] + p[x + 8])
            out[x] = s
        }
    }

    // MARK: One scale

    private func scaleAverages(_ w: Int, _ h: Int, fromBytes: Bool, alphaTable: Bool) -> [Double] {
        var sums = [Double](repeating: 0, count: 18)  // per channel: ssim1 ssim4 ring1 ring4 blur1 blur4
        for y in 0..<min(4, h) {
            produceRow(y, w, fromBytes: fromBytes, alphaTable: alphaTable)
        }
        let zero = UnsafePointer(zeroRow)
        for y in 0..<h {
            if y + 4 < h {
                produceRow(y + 4, w, fromBytes: fromBytes, alphaTable: alphaTable)
            }
            for c in 0..<3 {
                for q in 0..<5 {
                    let plane = c * 5 + q
                    func row(_ yy: Int) -> UnsafePointer<Float> { yy >= 0 && yy < h ? UnsafePointer(hRow(plane, yy)) : zero }
                    verticalBlur(
                        row(y), row(y - 1), row(y + 1), row(y - 2), row(y + 2),
                        row(y - 3), row(y + 3), row(y - 4), row(y + 4), into: vRows + q * width, w)
                }
                rowSums(ringRow(c, y), ringRow(3 + c, y), w, into: &sums, at: c * 6)
            }
        }
        let inv = 1.0 / Double(w * h)
        var ssim = [Double](repeating: 0, count: 6)
        var edge = [Double](repeating: 0, count: 12)
        for c in 0..<3 {
            let s = c * 6
            ssim[c * 2] = sums[s] * inv
            ssim[c * 2 + 1] = (sums[s + 1] * inv).squareRoot().squareRoot()
            edge[c * 4] = sums[s + 2] * inv
            edge[c * 4 + 1] = (sums[s + 3] * inv).squareRoot().squareRoot()
            edge[c * 4 + 2] = sums[s + 4] * inv
            edge[c * 4 + 3] = (sums[s + 5] * inv).squareRoot().squareRoot()
        }
        return ssim + edge
    }

    @inline(__always)
    private func verticalBlur(
        _ r0: UnsafePointer<Float>, _ a1: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
        _ a2: UnsafePointer<Float>, _ b2: UnsafePointer<Float>,
        _ a3: UnsafePointer<Float>, _ b3: UnsafePointer<Float>,
        _ a4: UnsafePointer<Float>, _ b4: UnsafePointer<Float>,
        into out: UnsafeMutablePointer<Float>, _ w: Int
    ) {
        for x in 0..<w {
            var s = kK0 * r0[x]
            s += kK1 * (a1[x] + b1[x])
            s += kK2 * (a2[x] + b2[x])
            s += kK3 * (a3[x] + b3[x])
            s += kK4 * (a4[x] + b4[x])
            out[x] = s
        }
    }

    /// Adds one row of one channel to its six sums: SSIM error, ringing, blurring, each to the 1st and 4th power.
    private func rowSums(
        _ p1: UnsafePointer<Float>, _ p2: UnsafePointer<Float>, _ w: Int,
        into sums: inout [Double], at base: Int
    ) {
        let mu1 = vRows, mu2 = vRows + width, s11 = mu2 + width, s22 = s11 + width, s12 = s22 + width
        let errors = errorRow, ratios = errorRow + width
        // Per-pixel terms first, so that loop can vectorise; then the sums, in order.
        for x in 0..<w {
            let m1 = mu1[x], m2 = mu2[x]
            let m11 = m1 * m1, m22 = m2 * m2, m12 = m1 * m2
            // SSIM without the luminance denominator, as libjxl has it: the inputs are already perceptual.
            let numM: Float = 1 - (m1 - m2) * (m1 - m2)
            let numS: Float = 2 * (s12[x] - m12) + kC2
            let denS: Float = (s11[x] - m11) + (s22[x] - m22) + kC2
            errors[x] = max(1.0 - Double(numM * numS / denS), 0)
            ratios[x] = (1.0 + Double(abs(p2[x] - m2))) / (1.0 + Double(abs(p1[x] - m1))) - 1.0
        }
        var ssim1 = 0.0, ssim4 = 0.0, ring1 = 0.0, ring4 = 0.0, blur1 = 0.0, blur4 = 0.0
        for x in 0..<w {
            let d = errors[x]
            let d2 = d * d
            ssim1 += d
            ssim4 += d2 * d2
            let ring = max(ratios[x], 0)  // distorted has an edge where the reference is smooth
            let lost = max(-ratios[x], 0)  // reference has an edge where the distorted is smooth
            let r2 = ring * ring, l2 = lost * lost
            ring1 += ring
            ring4 += r2 * r2
            blur1 += lost
            blur4 += l2 * l2
        }
        sums[base] += ssim1
        sums[base + 1] += ssim4
        sums[base + 2] += ring1
        sums[base + 3] += ring4
        sums[base + 4] += blur1
        sums[base + 5] += blur4
    }

    private func finalScore(_ averages: [[Double]]) -> Double {
        // Weights are consumed in order, so with fewer than six scales later channels shift onto
        // earlier weights; libjxl does the same and its scores depend on it.
        var sum = 0.0
        var i = 0
        for c in 0..<3 {
            for scale in averages {
                for n in 0..<2 {
                    sum += kWeights[i] * abs(scale[c * 2 + n]); i += 1
                    sum += kWeights[i] * abs(scale[6 + c * 4 + n]); i += 1
                    sum += kWeights[i] * abs(scale[6 + c * 4 + n + 2]); i += 1
                }
            }
        }
        var s = sum * 0.9562382616834844
        s = 2.326765642916932 * s - 0.020884521182843837 * s * s + 6.248496625763138e-05 * s * s * s
        return s > 0 ? 100.0 - 10.0 * pow(s, 0.6276336467831387) : 100.0
    }
}
