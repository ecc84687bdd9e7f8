import Zoetrope

/// A track's `edts/elst` box: whether the edit repeats and its segment durations (movie timescale).
///
/// libavif 0.11 does not read edit lists, so Zoetrope parses the colour track's own box to
/// get the loop count (ISO/IEC 23000-22 Amd. 2, 9.6.1).
struct AVIFEditList: Hashable, Sendable {
    /// 0 (32-bit fields) or 1 (64-bit fields).
    let version: UInt8
    /// Bit 0 of the box flags: the edit list repeats.
    let repeats: Bool
    /// Each entry's segment duration, in the movie timescale.
    let segmentDurations: [UInt64]

    /// Parses an `elst` payload. Throws `invalidData` for an unknown version or a box
    /// shorter than its entry count says.
    static func parse(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(AnimatedImageError) -> AVIFEditList {
        var r = ISOByteReader(bytes, range: range, context: "elst")
        let (version, flags) = try r.versionAndFlags()
        guard version <= 1 else {
            throw .invalidData(format: .avif, reason: "box 'elst' has unknown version \(version)")
        }
        let count = Int(try r.u32())
        // segment_duration, media_time (32 or 64 bits each), media_rate_integer + fraction.
        let entrySize = version == 1 ? 20 : 12
        guard count <= r.remaining / entrySize else {
            throw .invalidData(format: .avif, reason: "box 'elst' lists \(count) entries but holds \(r.remaining) bytes (\(entrySize) per entry)")
        }
        var durations: [UInt64] = []
        durations.reserveCapacity(count)
        for _ in 0..<count {
            if version == 1 {
                durations.append(try r.u64())
                try r.skip(8)
            } else {
                durations.append(UInt64(try r.u32()))
                try r.skip(4)
            }
            try r.skip(4)
        }
        return AVIFEditList(version: version, repeats: flags & 1 != 0, segmentDurations: durations)
    }

    /// Total plays under the AVIF rule, for a track whose `tkhd` duration is `trackDuration`
    /// (movie timescale; nil when indefinite).
    ///
    /// Repeat flag off: one play. On: the edit list must hold exactly one entry with a
    /// non-zero segment duration; an indefinite track duration plays forever, otherwise
    /// `ceil(track duration / segment duration)` plays (at least one).
    func loopCount(trackDuration: UInt64?) throws(AnimatedImageError) -> LoopCount {
        guard repeats else { return .once }
        guard segmentDurations.count == 1 else {
            throw .invalidData(format: .avif, reason: "repeating box 'elst' must hold exactly one entry, holds \(segmentDurations.count)")
        }
        let segment = segmentDurations[0]
        guard segment > 0 else {
            throw .invalidData(format: .avif, reason: "repeating box 'elst' has a segment duration of 0")
        }
        guard let track = trackDuration else { return .infinite }
        let plays = track / segment + (track % segment == 0 ? 0 : 1)
        guard plays <= UInt64(Int.max) else { return .infinite }
        return .plays(max(1, Int(plays)))
    }
}
