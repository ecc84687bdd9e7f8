/// Builds ISOBMFF boxes byte by byte for container tests.
enum BoxBytes {
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> UInt32($0)) } }
    static func u64(_ v: UInt64) -> [UInt8] { u32(UInt32(v >> 32)) + u32(UInt32(v & 0xFFFF_FFFF)) }

    /// A box: 32-bit size, type, payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// A full box: version and flags, then payload.
    static func fullBox(_ type: String, version: UInt8, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(u32(flags).dropFirst()) + payload)
    }

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        box("ftyp", Array(major.utf8) + u32(0) + compatible.flatMap { Array($0.utf8) })
    }

    static func mvhd(timescale: UInt32, version: UInt8 = 0) -> [UInt8] {
        version == 1
            ? fullBox("mvhd", version: 1, u64(0) + u64(0) + u32(timescale) + u64(0) + [UInt8](repeating: 0, count: 80))
            : fullBox("mvhd", version: 0, u32(0) + u32(0) + u32(timescale) + u32(0) + [UInt8](repeating: 0, count: 80))
    }

    static func tkhd(id: UInt32, duration: UInt64, version: UInt8 = 0) -> [UInt8] {
        let tail = [UInt8](repeating: 0, count: 60)
        return version == 1
            ? fullBox("tkhd", version: 1, flags: 1, u64(0) + u64(0) + u32(id) + u32(0) + u64(duration) + tail)
            : fullBox("tkhd", version: 0, flags: 1, u32(0) + u32(0) + u32(id) + u32(0) + u32(UInt32(truncatingIfNeeded: duration)) + tail)
    }

    /// An `elst` box; each entry is (segment duration, media time).
    static func elst(version: UInt8, repeats: Bool, entries: [(UInt64, Int64)]) -> [UInt8] {
        var p = u32(UInt32(entries.count))
        for (segment, mediaTime) in entries {
            p += version == 1 ? u64(segment) + u64(UInt64(bitPattern: mediaTime)) : u32(UInt32(segment)) + u32(UInt32(bitPattern: Int32(mediaTime)))
            p += u16(1) + u16(0)
        }
        return fullBox("elst", version: version, flags: repeats ? 1 : 0, p)
    }

    static func hdlr(_ handler: String) -> [UInt8] {
        fullBox("hdlr", version: 0, u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
    }

    /// A visual sample entry of `coding` (av01) with optional child boxes (e.g. `auxi`).
    static func sampleEntry(_ coding: String, width: UInt16, height: UInt16, children: [UInt8] = []) -> [UInt8] {
        var p = [UInt8](repeating: 0, count: 6) + u16(1)  // SampleEntry: reserved, data_reference_index
        p += [UInt8](repeating: 0, count: 16)  // pre_defined, reserved, pre_defined[3]
        p += u16(width) + u16(height)
        p += u32(0x0048_0000) + u32(0x0048_0000) + u32(0) + u16(1)
        p += [UInt8](repeating: 0, count: 32) + u16(0x18) + u16(0xFFFF)
        return box(coding, p + children)
    }

    static func auxi(_ urn: String) -> [UInt8] { fullBox("auxi", version: 0, Array(urn.utf8) + [0]) }

    /// A `trak` with the boxes a track needs for Zoetrope's reading of it.
    static func trak(
        id: UInt32, duration: UInt64 = 100, tkhdVersion: UInt8 = 0, handler: String = "pict",
        coding: String = "av01", auxiliaryFor: UInt32? = nil, auxiType: String? = nil,
        samples: UInt32 = 5, editList: [UInt8]? = nil
    ) -> [UInt8] {
        var p = tkhd(id: id, duration: duration, version: tkhdVersion)
        if let auxiliaryFor { p += box("tref", box("auxl", u32(auxiliaryFor))) }
        if let editList { p += box("edts", editList) }
        let entry = sampleEntry(coding, width: 64, height: 48, children: auxiType.map(auxi) ?? [])
        let stsd = fullBox("stsd", version: 0, u32(1) + entry)
        let stsz = fullBox("stsz", version: 0, u32(0) + u32(samples))
        p += box("mdia", hdlr(handler) + box("minf", box("stbl", stsd + stsz)))
        return box("trak", p)
    }

    /// `iref` entries (from, [to]) in version 0 (16-bit IDs) or 1 (32-bit IDs).
    static func iref(version: UInt8, _ refs: [(String, UInt32, [UInt32])]) -> [UInt8] {
        var p: [UInt8] = []
        for (type, from, to) in refs {
            let ids =
                version == 0
                ? u16(UInt16(from)) + u16(UInt16(to.count)) + to.flatMap { u16(UInt16($0)) }
                : u32(from) + u16(UInt16(to.count)) + to.flatMap { u32($0) }
            p += box(type, ids)
        }
        return fullBox("iref", version: version, p)
    }

    /// A file: `ftyp avis`, optionally a `meta`, then a `moov` holding `tracks`.
    static func file(meta: [UInt8]? = nil, movieTimescale: UInt32 = 1000, tracks: [[UInt8]]) -> [UInt8] {
        var f = ftyp("avis", ["avif", "avis", "msf1", "miaf"])
        if let meta { f += meta }
        f += box("moov", mvhd(timescale: movieTimescale) + tracks.flatMap { $0 })
        return f
    }
}
