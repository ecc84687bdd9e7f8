/// Xiaolin Wu's colour quantiser ("Efficient Statistical Computations for Optimal Color
/// Quantization", Graphics Gems II): cumulative moments over a 33³ grid (5 bits a channel),
/// then repeated cuts of the box whose weighted variance is largest, each at the plane that
/// minimises the two halves' summed variance.
struct WuBoxes {
    private static let side = 33
    private var wt: [Double], mr: [Double], mg: [Double], mb: [Double], m2: [Double]

    private struct Box { var r0 = 0, r1 = 0, g0 = 0, g1 = 0, b0 = 0, b1 = 0 }

    init(entries: [(colour: UInt32, count: UInt32)]) {
        let n = WuBoxes.side * WuBoxes.side * WuBoxes.side
        wt = [Double](repeating: 0, count: n); mr = wt; mg = wt; mb = wt; m2 = wt
        let (wr, wg, wb) = (Double(ColorQuantizer.weights.0), Double(ColorQuantizer.weights.1), Double(ColorQuantizer.weights.2))
        for (c, count) in entries {
            let r = Double(c & 0xFF), g = Double(c >> 8 & 0xFF), b = Double(c >> 16 & 0xFF), w = Double(count)
            let i = WuBoxes.index(Int(c & 0xFF) >> 3 + 1, Int(c >> 8 & 0xFF) >> 3 + 1, Int(c >> 16 & 0xFF) >> 3 + 1)
            wt[i] += w; mr[i] += r * w; mg[i] += g * w; mb[i] += b * w
            m2[i] += (wr * r * r + wg * g * g + wb * b * b) * w
        }
        accumulate()
    }

    @inline(__always) private static func index(_ r: Int, _ g: Int, _ b: Int) -> Int { (r * side + g) * side + b }

    /// Turns the per-cell moments into 3-D prefix sums.
    private mutating func accumulate() {
        let s = WuBoxes.side
        for r in 1..<s {
            var area = [Double](repeating: 0, count: 5 * s)
            for g in 1..<s {
                var line = (0.0, 0.0, 0.0, 0.0, 0.0)
                for b in 1..<s {
                    let i = WuBoxes.index(r, g, b), p = WuBoxes.index(r - 1, g, b)
                    line.0 += wt[i]; line.1 += mr[i]; line.2 += mg[i]; line.3 += mb[i]; line.4 += m2[i]
                    area[b] += line.0; area[s + b] += line.1; area[2 * s + b] += line.2
                    area[3 * s + b] += line.3; area[4 * s + b] += line.4
                    wt[i] = wt[p] + area[b]; mr[i] = mr[p] + area[s + b]; mg[i] = mg[p] + area[2 * s + b]
                    mb[i] = mb[p] + area[3 * s + b]; m2[i] = m2[p] + area[4 * s + b]
                }
            }
        }
    }

    private func volume(_ b: Box, _ m: [Double]) -> Double {
        m[WuBoxes.index(b.r1, b.g1, b.b1)] - m[WuBoxes.index(b.r1, b.g1, b.b0)]
            - m[WuBoxes.index(b.r1, b.g0, b.b1)] + m[WuBoxes.index(b.r1, b.g0, b.b0)]
            - m[WuBoxes.index(b.r0, b.g1, b.b1)] + m[WuBoxes.index(b.r0, b.g1, b.b0)]
            + m[WuBoxes.index(b.r0, b.g0, b.b1)] - m[WuBoxes.index(b.r0, b.g0, b.b0)]
    }

    /// The box's moment with its `dir` upper bound moved to `pos` (the lower half of a cut).
    private func lower(_ b: Box, _ dir: Int, _ pos: Int, _ m: [Double]) -> Double {
        var c = b
        switch dir {
        case 0: c.r1 = pos;
        case 1: c.g1 = pos;
        default: c.b1 = pos
        }
        return volume(c, m)
    }

    private func weightedSum2(_ r: Double, _ g: Double, _ b: Double) -> Double {
        Double(ColorQuantizer.weights.0) * r * r + Double(ColorQuantizer.weights.1) * g * g
            + Double(ColorQuantizer.weights.2) * b * b
    }

    private func variance(_ b: Box) -> Double {
        let w = volume(b, wt)
        guard w > 0 else { return 0 }
        return volume(b, m2) - weightedSum2(volume(b, mr), volume(b, mg), volume(b, mb)) / w
    }

    /// The best cut of `b` along `dir`: the position and the score (larger is better).
    private func maximize(
        _ b: Box, _ dir: Int, first: Int, last: Int,
        whole: (Double, Double, Double, Double)
    ) -> (pos: Int, score: Double) {
        var best = (pos: -1, score: 0.0)
        guard first < last else { return best }
        for pos in first..<last {
            let hw = lower(b, dir, pos, wt)
            guard hw > 0, whole.3 - hw > 0 else { continue }
            let hr = lower(b, dir, pos, mr), hg = lower(b, dir, pos, mg), hb = lower(b, dir, pos, mb)
            var score = weightedSum2(hr, hg, hb) / hw
            score += weightedSum2(whole.0 - hr, whole.1 - hg, whole.2 - hb) / (whole.3 - hw)
            if score > best.score { best = (pos, score) }
        }
        return best
    }

    private func cut(_ b: inout Box, _ other: inout Box) -> Bool {
        let whole = (volume(b, mr), volume(b, mg), volume(b, mb), volume(b, wt))
        let r = maximize(b, 0, first: b.r0 + 1, last: b.r1, whole: whole)
        let g = maximize(b, 1, first: b.g0 + 1, last: b.g1, whole: whole)
        let bl = maximize(b, 2, first: b.b0 + 1, last: b.b1, whole: whole)
        let dir: Int, pos: Int
        if r.score >= g.score && r.score >= bl.score {
            dir = 0; pos = r.pos
        } else if g.score >= bl.score {
            dir = 1; pos = g.pos
        } else {
            dir = 2; pos = bl.pos
        }
        guard pos >= 0 else { return false }
        other = b
        switch dir {
        case 0: other.r0 = pos; b.r1 = pos
        case 1: other.g0 = pos; b.g1 = pos
        default: other.b0 = pos; b.b1 = pos
        }
        return true
    }

    /// Cuts the colour space into at most `k` boxes and returns their mean colours.
    mutating func cut(into k: Int) -> [UInt32] {
        var boxes = [Box(r0: 0, r1: 32, g0: 0, g1: 32, b0: 0, b1: 32)]
        var variances = [variance(boxes[0])]
        while boxes.count < k {
            guard let next = variances.indices.max(by: { variances[$0] < variances[$1] }), variances[next] > 0 else { break }
            var a = boxes[next], b = Box()
            if cut(&a, &b) {
                boxes[next] = a
                boxes.append(b)
                variances[next] = variance(a)
                variances.append(variance(b))
            } else {
                variances[next] = 0
            }
        }
        return boxes.compactMap { b in
            let w = volume(b, wt)
            guard w > 0 else { return nil }
            return PaletteMapper.pack(
                UInt8(min(255, (volume(b, mr) / w).rounded())),
                UInt8(min(255, (volume(b, mg) / w).rounded())),
                UInt8(min(255, (volume(b, mb) / w).rounded())))
        }
    }
}
