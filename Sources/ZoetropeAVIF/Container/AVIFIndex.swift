import Zoetrope

/// Zoetrope's own reading of an AVIF file's structure, done before libavif sees it.
///
/// libavif 0.11 lags current libavif (and browsers) in four ways this corrects: it fails on
/// a sequence that also carries a track without a picture size (audio), it decodes a depth
/// auxiliary track as alpha, it accepts an `iref` naming item ID 0, and it refuses repeated
/// `ipma` boxes of the same version and flags (merged in Zoetrope's copy). It also does not read
/// the edit list, which gives the loop count. Only `meta` and `moov` are read; `mdat` is not.
struct AVIFIndex: Sendable {
    /// The `ftyp` major and compatible brands.
    var brands: [UInt32] = []
    /// A top-level `meta` box with a primary item (`pitm`): the file has a still image.
    var hasPrimaryItem = false
    /// `mvhd` timescale (ticks per second), 0 when there is no movie.
    var movieTimescale: UInt32 = 0
    /// Every `moov/trak`, in file order.
    var tracks: [AVIFTrack] = []
    /// A top-level box (normally `mdat`) that the end of the file cuts short, if any; its
    /// `end` is where the box says it ends.
    var cutBox: ISOBox?
    /// Rewrites of Zoetrope's copy that libavif 0.11 needs (see `mergedItemPropertyAssociations`).
    var patches: [Patch] = []

    /// The first AV1 track that is not auxiliary (libavif's choice of colour track).
    var colourTrack: AVIFTrack? { tracks.first { $0.isColour } }

    /// The alpha track of the colour track, if any.
    var alphaTrack: AVIFTrack? {
        guard let colour = colourTrack else { return nil }
        return tracks.first { $0.isAlpha(for: colour.id) }
    }

    /// Tracks libavif must not see: everything but the colour track and its alpha track
    /// (audio, depth and other auxiliary tracks, further video tracks).
    var tracksToHide: [AVIFTrack] {
        let colour = colourTrack, alpha = alphaTrack
        return tracks.filter { $0.box != colour?.box && $0.box != alpha?.box }
    }

    /// Total plays of the sequence: from the colour track's edit list, forever without one.
    func loopCount() throws(AnimatedImageError) -> LoopCount {
        guard let colour = colourTrack else { return .once }
        if let error = colour.editListError { throw error }
        guard let editList = colour.editList else { return .infinite }
        return try editList.loopCount(trackDuration: colour.duration)
    }

    /// Reads the structure of `bytes`. Throws `invalidData` for a malformed `ftyp`, `meta`
    /// or `moov`, or an `iref` naming item ID 0.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) -> AVIFIndex {
        var c = AVIFIndex()
        let (top, cut) = try ISOBoxScanner.boxes(in: bytes, range: 0..<bytes.count, parent: "file", tolerateTruncation: true)
        if let cut, cut.type == ISOBox.code("meta") || cut.type == ISOBox.code("moov") || cut.type == ISOBox.code("ftyp") {
            throw .truncated(format: .avif, completeFrames: 0, reason: "the file ends inside its '\(cut.typeName)' box")
        }
        c.cutBox = cut
        for box in top {
            switch box.type {
            case ISOBox.code("ftyp"):
                var r = ISOByteReader(bytes, range: box.payload, context: "ftyp")
                c.brands.append(try r.u32())
                try r.skip(4)
                while r.remaining >= 4 { c.brands.append(try r.u32()) }
            case ISOBox.code("meta"):
                try c.readMeta(box, bytes)
            case ISOBox.code("moov"):
                try c.readMovie(box, bytes)
            default:
                break
            }
        }
        return c
    }

    private mutating func readMeta(_ meta: ISOBox, _ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        for box in try ISOBoxScanner.children(of: meta, in: bytes, skipping: 4) {
            switch box.type {
            case ISOBox.code("pitm"):
                hasPrimaryItem = true
            case ISOBox.code("iref"):
                try AVIFIndex.checkItemReferences(box, bytes)
            case ISOBox.code("iprp"):
                if let patch = AVIFIndex.mergedItemPropertyAssociations(box, bytes) { patches.append(patch) }
            default:
                break
            }
        }
    }

    /// Rejects an `iref` whose references name item ID 0, which is reserved (current libavif
    /// rejects such files: "Box[iref] has an invalid item ID [0]").
    static func checkItemReferences(_ iref: ISOBox, _ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        var r = ISOByteReader(bytes, range: iref.payload, context: "iref")
        let (version, _) = try r.versionAndFlags()
        guard version <= 1 else { throw .invalidData(format: .avif, reason: "box 'iref' has unknown version \(version)") }
        for ref in try ISOBoxScanner.boxes(in: bytes, range: r.offset..<iref.end, parent: "iref").boxes {
            var e = ISOByteReader(bytes, range: ref.payload, context: "iref/\(ref.typeName)")
            let from = version == 0 ? UInt32(try e.u16()) : try e.u32()
            let count = Int(try e.u16())
            var ids = [from]
            for _ in 0..<count { ids.append(version == 0 ? UInt32(try e.u16()) : try e.u32()) }
            if ids.contains(0) {
                throw .invalidData(format: .avif, reason: "box 'iref' ('\(ref.typeName)' reference) names invalid item ID 0")
            }
        }
    }

    private mutating func readMovie(_ moov: ISOBox, _ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        for box in try ISOBoxScanner.children(of: moov, in: bytes) {
            switch box.type {
            case ISOBox.code("mvhd"):
                var r = ISOByteReader(bytes, range: box.payload, context: "mvhd")
                let (version, _) = try r.versionAndFlags()
                try r.skip(version == 1 ? 16 : 8)
                movieTimescale = try r.u32()
            case ISOBox.code("trak"):
                tracks.append(try AVIFIndex.readTrack(box, bytes))
            default:
                break
            }
        }
    }

    static func readTrack(_ trak: ISOBox, _ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) -> AVIFTrack {
        var t = AVIFTrack(box: trak)
        for box in try ISOBoxScanner.children(of: trak, in: bytes) {
            switch box.type {
            case ISOBox.code("tkhd"):
                var r = ISOByteReader(bytes, range: box.payload, context: "tkhd")
                let (version, _) = try r.versionAndFlags()
                if version == 1 {
                    try r.skip(16)
                    t.id = try r.u32()
                    try r.skip(4)
                    let d = try r.u64()
                    t.duration = d == .max ? nil : d
                } else {
                    try r.skip(8)
                    t.id = try r.u32()
                    try r.skip(4)
                    let d = try r.u32()
                    t.duration = d == .max ? nil : UInt64(d)
                }
            case ISOBox.code("tref"):
                for ref in try ISOBoxScanner.children(of: box, in: bytes) where ref.type == ISOBox.code("auxl") {
                    var r = ISOByteReader(bytes, range: ref.payload, context: "tref/auxl")
                    t.auxiliaryFor = try r.u32()
                }
            case ISOBox.code("edts"):
                for e in try ISOBoxScanner.children(of: box, in: bytes) where e.type == ISOBox.code("elst") {
                    do {
                        t.editList = try AVIFEditList.parse(bytes, range: e.payload)
                    } catch {
                        t.editListError = error
                    }
                }
            case ISOBox.code("mdia"):
                try readMedia(box, bytes, into: &t)
            default:
                break
            }
        }
        return t
    }

    private static func readMedia(_ mdia: ISOBox, _ bytes: UnsafeRawBufferPointer, into t: inout AVIFTrack) throws(AnimatedImageError) {
        for box in try ISOBoxScanner.children(of: mdia, in: bytes) {
            if box.type == ISOBox.code("hdlr") {
                var r = ISOByteReader(bytes, range: box.payload, context: "hdlr")
                try r.skip(8)
                t.handler = try r.u32()
            } else if box.type == ISOBox.code("minf") {
                for stbl in try ISOBoxScanner.children(of: box, in: bytes) where stbl.type == ISOBox.code("stbl") {
                    for table in try ISOBoxScanner.children(of: stbl, in: bytes) {
                        if table.type == ISOBox.code("stsd") {
                            try readSampleDescription(table, bytes, into: &t)
                        } else if table.type == ISOBox.code("stsz") {
                            var r = ISOByteReader(bytes, range: table.payload, context: "stsz")
                            try r.skip(8)
                            t.sampleCount = Int(try r.u32())
                        }
                    }
                }
            }
        }
    }

    /// Reads the first sample entry: its coding name and, for `av01`, any `auxi` box.
    private static func readSampleDescription(_ stsd: ISOBox, _ bytes: UnsafeRawBufferPointer, into t: inout AVIFTrack) throws(AnimatedImageError) {
        var r = ISOByteReader(bytes, range: stsd.payload, context: "stsd")
        try r.skip(4)
        guard try r.u32() > 0 else { return }
        let entries = try ISOBoxScanner.boxes(in: bytes, range: r.offset..<stsd.end, parent: "stsd").boxes
        guard let entry = entries.first else { return }
        t.sampleEntry = entry.type
        // A VisualSampleEntry has 78 bytes of fixed fields before its child boxes.
        let fixed = 78
        guard entry.type == ISOBox.code("av01"), entry.payload.count >= fixed else { return }
        var v = ISOByteReader(bytes, range: entry.payload, context: "av01")
        try v.skip(24)
        t.width = Int(try v.u16())
        t.height = Int(try v.u16())
        let children = try ISOBoxScanner.boxes(in: bytes, range: entry.payloadStart + fixed..<entry.end, parent: "av01").boxes
        for child in children where child.type == ISOBox.code("auxi") {
            var a = ISOByteReader(bytes, range: child.payload, context: "auxi")
            try a.skip(4)
            t.auxiliaryType = try a.cString()
        }
    }
}
