import Zoetrope

/// The timing Zoetrope writes into an AVIF sequence: one media timescale that represents
/// every frame's duration exactly (the least common multiple of their denominators), the
/// per-sample durations in it, and the plays.
struct AVIFSequenceTiming: Hashable, Sendable {
    /// Ticks per second, used for both the movie and the media timescale.
    var timescale: UInt32
    /// Each frame's duration in ticks.
    var sampleDurations: [UInt32]
    /// Total plays.
    var loopCount: LoopCount

    /// Every frame's duration exactly when a timescale up to 2³²−1 holds them all (and each
    /// fits 32 bits); otherwise rounded to the finest of µs, ms, cs or s that fits.
    init(durations: [FrameDuration], loopCount: LoopCount) {
        self.loopCount = loopCount
        var lcm: Int64? = 1
        for d in durations {
            guard let l = lcm else { break }
            let g = AVIFSequenceTiming.gcd(l, d.denominator)
            let (m, o) = (l / g).multipliedReportingOverflow(by: d.denominator)
            lcm = o || m > Int64(UInt32.max) ? nil : m
        }
        for scale in [lcm, 1_000_000, 1000, 100, 1].compactMap({ $0 }) {
            let ticks = durations.map { d in (Int128(d.numerator) * Int128(scale) + Int128(d.denominator) / 2) / Int128(d.denominator) }
            if ticks.allSatisfy({ $0 <= Int128(UInt32.max) }) {
                timescale = UInt32(scale)
                sampleDurations = ticks.map { UInt32($0) }
                return
            }
        }
        timescale = 1
        sampleDurations = durations.map { _ in UInt32.max }
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return max(1, x)
    }

    /// The sum of the sample durations: one play, in ticks.
    var mediaDuration: UInt64 { sampleDurations.reduce(0) { $0 + UInt64($1) } }

    /// The track duration under the AVIF repetition rule: one play × plays, or indefinite
    /// (nil) when forever. A one-play or zero-length sequence lasts one play.
    var trackDuration: UInt64? {
        let d = mediaDuration
        switch loopCount {
        case .infinite: return d == 0 ? 0 : nil
        case .plays(let n):
            let (t, o) = d.multipliedReportingOverflow(by: UInt64(max(1, n)))
            return o ? nil : t
        }
    }

    /// The `elst` box: one entry covering the whole media (segment duration = one play,
    /// media time 0, rate 1), with the repeat flag when there is more than one play. A
    /// zero-length sequence cannot repeat a finite number of times: one play writes a
    /// non-repeating edit, anything else none (it then plays forever).
    var editListBox: [UInt8]? {
        let d = mediaDuration
        let repeats = loopCount != .once
        guard d > 0 || !repeats else { return nil }
        let wide = d > UInt64(UInt32.max)
        var payload: [UInt8] = [wide ? 1 : 0, 0, 0, repeats ? 1 : 0]
        payload += ISOWriter.u32(1)
        if wide {
            payload += ISOWriter.u64(d) + ISOWriter.u64(0)
        } else {
            payload += ISOWriter.u32(UInt32(d)) + ISOWriter.u32(0)
        }
        payload += ISOWriter.u32(0x0001_0000)  // media_rate_integer 1, media_rate_fraction 0
        return ISOWriter.box("elst", payload)
    }

    /// The `stts` box: runs of equal durations.
    var timeToSampleBox: [UInt8] {
        var runs: [(count: UInt32, delta: UInt32)] = []
        for d in sampleDurations {
            if let last = runs.last, last.delta == d { runs[runs.count - 1].count += 1 } else { runs.append((1, d)) }
        }
        var payload: [UInt8] = [0, 0, 0, 0] + ISOWriter.u32(UInt32(runs.count))
        for r in runs { payload += ISOWriter.u32(r.count) + ISOWriter.u32(r.delta) }
        return ISOWriter.box("stts", payload)
    }
}
