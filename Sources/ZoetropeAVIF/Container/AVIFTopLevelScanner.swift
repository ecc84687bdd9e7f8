import Zoetrope

/// Follows the top-level boxes of an AVIF file as its bytes arrive: each box header is read
/// once, a box is waited for (without looking at it again) until its last byte is in, and
/// `ftyp`'s brands are read when it is complete.
///
/// It says when libavif's parse can run (`parsePoint`): libavif reads the top-level boxes in
/// order and stops once it has `ftyp` and what the brands require (`meta` for `avif`,
/// `moov` for `avis`), so the bytes up to the end of the box that completes that set are
/// all it reads. A box whose size is smaller than its header is the whole-file error
/// (`ISOBoxScanner`'s); a box of size 0 runs to the end of the file, so it is complete only
/// when the data ends.
struct AVIFTopLevelScanner {
    /// Where the next box header starts.
    private(set) var offset = 0
    /// The box whose header was read and whose bytes are not all in yet.
    private(set) var pending: ISOBox?
    /// A box of size 0 was met: nothing after it is a box.
    private(set) var openEnded = false
    /// `ftyp`'s major and compatible brands, once the first `ftyp` is complete.
    private(set) var brands: [UInt32]?
    /// Where the first `ftyp`, `meta` and `moov` end, once complete.
    private(set) var ftypEnd: Int?, metaEnd: Int?, moovEnd: Int?
    /// Header bytes read, plus the `ftyp` payload (each byte once).
    private(set) var bytesExamined = 0

    /// Reads on from `offset` through `bytes` (the file so far).
    mutating func advance(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        while true {
            if let box = pending {
                guard box.end <= bytes.count else { return }
                pending = nil
                offset = box.end
                completed(box, bytes)
                continue
            }
            guard !openEnded, bytes.count - offset >= 8 else { return }
            var r = ISOByteReader(bytes, range: offset..<bytes.count, context: "file")
            let size32 = try r.u32(), type = try r.u32()
            var size = UInt64(size32)
            if size32 == 1 {
                guard r.remaining >= 8 else { return }
                size = try r.u64()
            } else if size32 == 0 {
                openEnded = true
                bytesExamined += 8
                return
            }
            let header = r.offset - offset
            guard size >= UInt64(header) else {
                throw .invalidData(format: .avif, reason: "box '\(ISOBox.name(of: type))' in 'file' has size \(size), smaller than its header")
            }
            bytesExamined += header
            let (end, overflow) = UInt64(offset).addingReportingOverflow(size)
            pending = ISOBox(
                type: type, start: offset, payloadStart: offset + header,
                end: overflow || end > UInt64(Int.max) ? .max : Int(end))
        }
    }

    private mutating func completed(_ box: ISOBox, _ bytes: UnsafeRawBufferPointer) {
        switch box.type {
        case ISOBox.code("ftyp") where ftypEnd == nil:
            ftypEnd = box.end
            bytesExamined += box.payload.count
            var r = ISOByteReader(bytes, range: box.payload, context: "ftyp")
            var found: [UInt32] = []
            if let major = try? r.u32() { found.append(major) }
            try? r.skip(4)
            while r.remaining >= 4, let b = try? r.u32() { found.append(b) }
            brands = found
        case ISOBox.code("meta") where metaEnd == nil:
            metaEnd = box.end
        case ISOBox.code("moov") where moovEnd == nil:
            moovEnd = box.end
        default:
            break
        }
    }

    /// `ftyp` names an AVIF still (`avif`) or sequence (`avis`).
    var isAVIF: Bool { brands.map { $0.contains(ISOBox.code("avif")) || $0.contains(ISOBox.code("avis")) } ?? false }

    /// Where libavif's parse of the top-level boxes stops, once every box it needs is in
    /// (nil before, or when the brands name neither `avif` nor `avis`).
    var parsePoint: Int? {
        guard let brands, let ftypEnd else { return nil }
        let needsMeta = brands.contains(ISOBox.code("avif")), needsMoov = brands.contains(ISOBox.code("avis"))
        guard needsMeta || needsMoov else { return nil }
        var point = ftypEnd
        if needsMeta {
            guard let metaEnd else { return nil }
            point = max(point, metaEnd)
        }
        if needsMoov {
            guard let moovEnd else { return nil }
            point = max(point, moovEnd)
        }
        return point
    }
}
