import Zoetrope

/// Rewrites the timing of the image sequence libavif 0.11 wrote (which has no edit list and
/// was given one tick per frame): the movie and media timescales and durations, each track's
/// `stts`, and an `edts/elst` after each `tkhd` (ISO/IEC 14496-12 8.6.5, with the AVIF
/// repetition rule of ISO/IEC 23000-22). `moov` grows, so the chunk offsets of `stco`/`co64`
/// and the extents of `iloc` that point past it (the file's and a track's own `meta`) move by
/// the same amount.
enum AVIFSequencePatch {
    static func apply(_ file: [UInt8], timing: AVIFSequenceTiming) throws(AnimatedImageError) -> [UInt8] {
        let top = try scan(file) { raw throws(AnimatedImageError) in
            try ISOBoxScanner.boxes(in: raw, range: 0..<raw.count, parent: "file").boxes
        }
        guard let moov = top.first(where: { $0.type == ISOBox.code("moov") }) else {
            throw .codecFailure(format: .avif, library: "libavif", message: "the sequence it wrote has no 'moov' box")
        }
        let first = try rebuild(moov, file, timing: timing, shift: 0)
        let delta = first.count - (moov.end - moov.start)
        let newMoov = delta == 0 ? first : try rebuild(moov, file, timing: timing, shift: delta)
        var head = Array(file[..<moov.start])
        if delta != 0, let meta = top.first(where: { $0.type == ISOBox.code("meta") }), meta.start < moov.start {
            try shiftItemLocations(&head, meta: meta, from: moov.start, by: delta)
        }
        return head + newMoov + file[moov.end...]
    }

    private static let containers: Set<UInt32> = ["moov", "trak", "mdia", "minf", "stbl"].map { ISOBox.code($0) }.reduce(into: []) { $0.insert($1) }

    /// `box` with its timing rewritten; chunk offsets past `moov` moved by `shift`.
    static func rebuild(_ box: ISOBox, _ file: [UInt8], timing: AVIFSequenceTiming, shift: Int) throws(AnimatedImageError) -> [UInt8] {
        var payload = Array(file[box.payloadStart..<box.end])
        switch box.type {
        case _ where containers.contains(box.type):
            let children = try scan(file) { raw throws(AnimatedImageError) in try ISOBoxScanner.children(of: box, in: raw) }
            payload = []
            for child in children where child.type != ISOBox.code("edts") {
                payload += try rebuild(child, file, timing: timing, shift: shift)
                if child.type == ISOBox.code("tkhd"), let elst = timing.editListBox { payload += ISOWriter.box("edts", elst) }
            }
        case ISOBox.code("mvhd"), ISOBox.code("mdhd"):
            // version 1: creation 8, modification 8, timescale 4, duration 8; version 0: 4, 4, 4, 4.
            let wide = payload[0] == 1
            zeroTimes(&payload, wide: wide)
            let t = wide ? 20 : 12
            ISOWriter.write(&payload, t, size: 4, UInt64(timing.timescale))
            let duration = box.type == ISOBox.code("mdhd") ? timing.mediaDuration : timing.trackDuration
            ISOWriter.write(&payload, t + 4, size: wide ? 8 : 4, duration.map { wide ? $0 : min($0, UInt64(UInt32.max)) } ?? .max)
        case ISOBox.code("tkhd"):
            // version 1: creation 8, modification 8, track_ID 4, reserved 4, duration 8; version 0: 4, 4, 4, 4, 4.
            let wide = payload[0] == 1
            zeroTimes(&payload, wide: wide)
            let d = timing.trackDuration.map { wide ? $0 : min($0, UInt64(UInt32.max)) } ?? .max
            ISOWriter.write(&payload, wide ? 28 : 20, size: wide ? 8 : 4, d)
        case ISOBox.code("stts"):
            return timing.timeToSampleBox
        case ISOBox.code("stco"), ISOBox.code("co64"):
            let size = box.type == ISOBox.code("stco") ? 4 : 8
            let count = Int(ISOWriter.read(payload, 4, size: 4))
            guard payload.count >= 8 + count * size else { throw failure("'\(box.typeName)' shorter than its entry count") }
            for i in 0..<count {
                let o = 8 + i * size
                let v = Int64(ISOWriter.read(payload, o, size: size)) + Int64(shift)
                guard v >= 0, size == 8 || v <= Int64(UInt32.max) else { throw failure("a chunk offset no longer fits 32 bits") }
                ISOWriter.write(&payload, o, size: size, UInt64(v))
            }
        case ISOBox.code("meta") where shift != 0:
            // A track's own items (libavif puts a sequence's Exif and XMP there): their
            // extents in `mdat` move too.
            var copy = file
            try shiftItemLocations(&copy, meta: box, from: box.end, by: shift)
            return Array(copy[box.start..<box.end])
        default:
            return Array(file[box.start..<box.end])
        }
        return ISOWriter.box(box.type, payload)
    }

    /// Sets a header's creation and modification times (after its version and flags) to 0:
    /// libavif writes the clock's, so the same frames would give other bytes a second later;
    /// an encode is reproducible instead (0 is what a writer without a date stores).
    private static func zeroTimes(_ payload: inout [UInt8], wide: Bool) {
        ISOWriter.write(&payload, 4, size: wide ? 8 : 4, 0)
        ISOWriter.write(&payload, wide ? 12 : 8, size: wide ? 8 : 4, 0)
    }

    /// Moves every `iloc` extent (file offsets, construction method 0) that lies at or past
    /// `from` by `delta`.
    static func shiftItemLocations(_ head: inout [UInt8], meta: ISOBox, from: Int, by delta: Int) throws(AnimatedImageError) {
        let children = try scan(head) { raw throws(AnimatedImageError) in
            try ISOBoxScanner.children(of: meta, in: raw, skipping: 4)
        }
        guard let iloc = children.first(where: { $0.type == ISOBox.code("iloc") }) else { return }
        var o = iloc.payloadStart
        let version = head[o]
        o += 4
        let offsetSize = Int(head[o] >> 4), lengthSize = Int(head[o] & 0xF)
        let baseSize = Int(head[o + 1] >> 4), indexSize = version >= 1 ? Int(head[o + 1] & 0xF) : 0
        o += 2
        let itemCount = Int(ISOWriter.read(head, o, size: version < 2 ? 2 : 4))
        o += version < 2 ? 2 : 4
        func shifted(_ at: Int, _ size: Int) throws(AnimatedImageError) {
            guard size > 0 else { return }
            let v = ISOWriter.read(head, at, size: size)
            guard v >= UInt64(from) else { return }
            let n = Int64(v) + Int64(delta)
            guard size == 8 || n <= Int64(UInt32.max) else { throw failure("an item offset no longer fits 32 bits") }
            ISOWriter.write(&head, at, size: size, UInt64(n))
        }
        for _ in 0..<itemCount {
            o += version < 2 ? 2 : 4  // item_ID
            var method = 0
            if version >= 1 { method = Int(ISOWriter.read(head, o, size: 2) & 0xF); o += 2 }
            o += 2  // data_reference_index
            let baseAt = o
            o += baseSize
            let extents = Int(ISOWriter.read(head, o, size: 2))
            o += 2
            if method == 0 && baseSize > 0 && ISOWriter.read(head, baseAt, size: baseSize) > 0 {
                try shifted(baseAt, baseSize)
                o += extents * (indexSize + offsetSize + lengthSize)
                continue
            }
            for _ in 0..<extents {
                o += indexSize
                if method == 0 { try shifted(o, offsetSize) }
                o += offsetSize + lengthSize
            }
            guard o <= iloc.end else { throw failure("'iloc' shorter than its items") }
        }
    }

    /// Runs a box scan over `bytes`, keeping the typed error.
    private static func scan(
        _ bytes: [UInt8],
        _ body: (UnsafeRawBufferPointer) throws(AnimatedImageError) -> [ISOBox]
    ) throws(AnimatedImageError) -> [ISOBox] {
        let result: Result<[ISOBox], AnimatedImageError> = bytes.withUnsafeBytes { raw in
            do throws(AnimatedImageError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func failure(_ message: String) -> AnimatedImageError {
        .codecFailure(format: .avif, library: "libavif", message: "rewriting its sequence timing: \(message)")
    }
}
