/// `AVIFDeepConversion`'s arithmetic as tables over every sample value at one depth: libyuv's
/// luma and chroma terms (`AVIFLibYUVMatrix`) in 1/4,096 of an 8-bit step (64 times
/// libyuv's own precision), already × 257, so that a channel is one sum, a shift and a clamp.
final class AVIFDeepTables {
    private let count: Int
    /// Per sample value: luma term (less libyuv's half step of rounding), then the chroma
    /// terms of U for blue and green and of V for green and red, then alpha at 16 bits.
    private let y, ub, ug, vg, vr: UnsafeMutablePointer<Int32>
    private let alpha: UnsafeMutablePointer<UInt16>

    init(matrix m: AVIFLibYUVMatrix, depth: Int) {
        count = 1 << depth
        y = .allocate(capacity: 5 * count)
        ub = y + count
        ug = ub + count
        vg = ug + count
        vr = vg + count
        alpha = .allocate(capacity: count)
        let shift = depth - 8, maximum = count - 1
        // libyuv truncates deeper chroma to 8 bits; keep it whole, less that truncation's mean.
        let truncationMean = (32 * ((1 << shift) - 1)) >> shift
        for v in 0..<count {
            // libyuv's 16-bit luma: the sample's bits repeated below it.
            let y16 = depth == 8 ? v * 257 : (v << (16 - depth)) | (v >> (2 * depth - 16))
            y[v] = Int32(((y16 * Int(m.yg)) >> 10 + Int(m.yb) * 64 - 2_048) * 257)
            let c = v * (64 >> shift) - 8_192 - truncationMean
            ub[v] = Int32(Int(m.ub) * c * 257)
            ug[v] = Int32(Int(m.ug) * c * 257)
            vg[v] = Int32(Int(m.vg) * c * 257)
            vr[v] = Int32(Int(m.vr) * c * 257)
            alpha[v] = UInt16((v * 65_535 + maximum / 2) / maximum)
        }
    }

    deinit {
        y.deallocate()
        alpha.deallocate()
    }

    /// One row of RGBA16 from samples each below `count`: neutral chroma without `u`,
    /// opaque without `alpha`.
    func convertRow(
        y ys: UnsafePointer<UInt16>, u us: UnsafePointer<UInt16>?, v vs: UnsafePointer<UInt16>, alpha al: UnsafePointer<UInt16>?,
        into o: UnsafeMutablePointer<UInt16>, count n: Int
    ) {
        @inline(__always) func channel(_ sum: Int32) -> UInt16 { UInt16(min(max((sum &+ 2_048) >> 12, 0), 65_535)) }
        for x in 0..<n {
            let l = y[Int(ys[x])]
            if let us {
                let u = Int(us[x]), v = Int(vs[x])
                o[4 * x] = channel(l &+ vr[v])
                o[4 * x + 1] = channel(l &- ug[u] &- vg[v])
                o[4 * x + 2] = channel(l &+ ub[u])
            } else {
                let g = channel(l)
                o[4 * x] = g
                o[4 * x + 1] = g
                o[4 * x + 2] = g
            }
            o[4 * x + 3] = al.map { alpha[Int($0[x])] } ?? 65_535
        }
    }
}
