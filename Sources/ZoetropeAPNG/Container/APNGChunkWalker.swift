import Zoetrope

/// Walks a PNG's chunks once, checking every APNG rule and the CRCs of the header and
/// control chunks, and indexes the frames. Image data CRCs (IDAT, fdAT) are checked as each
/// frame is decoded (frame 0's here), so opening a large file reads only its chunk headers.
///
/// A broken still image (bad IHDR, no IDAT, a bad CRC in a critical chunk) is an error.
/// Broken animation chunks are not: the walker records why and the file decodes as its
/// still image, as browsers do. A file that ends early keeps the frames completed before
/// the break and records the truncation.
///
/// The walker is resumable: `advance` is given every byte received so far and continues
/// with the first chunk it has not visited, visiting a chunk once all of its bytes are in
/// (until then an `advance` costs O(1)); `finish` says the file ends there. The whole-file
/// path (`index`) is the walker fed the whole file at once.
struct APNGChunkWalker {
    private let limits: Limits

    enum IDATState { case before, inside, after }

    // Header and the chunks frame streams repeat.
    private(set) var header: PNGHeader?
    private(set) var palette: Range<Int>?
    private(set) var transparency: Range<Int>?
    // The still image.
    private(set) var idatState = IDATState.before
    private(set) var idatChunks: [APNGDataChunk] = []
    // Animation state.
    private(set) var numFrames: UInt32?
    private(set) var numPlays: UInt32 = 0
    private(set) var animationIgnored = false  // no acTL before the first IDAT: a plain PNG
    private(set) var animationError: String?
    private var expectedSequence: UInt32 = 0
    /// The frames whose data is complete (a frame's fdAT run ends at the next fcTL or IEND).
    var frames: [APNGFrameRecord] = []
    /// The frame whose fcTL was read last and whose data may go on.
    private(set) var pending: APNGFrameRecord?
    // Read and set by `finish` (APNGChunkWalker+Finish.swift) as well.
    var pendingHasData = false
    var cleanBreak = false
    private var dataChunkCount = 0
    /// Where the next chunk starts (0 until the signature is read).
    private(set) var offset = 0
    private(set) var sawIEND = false
    /// Set when a chunk length stopped the walk before the end of the bytes (or by `finish`).
    var breakReason: String?
    /// Bytes read so far: chunk headers, control chunks and CRCs, each once.
    private(set) var bytesExamined = 0
    /// The length and type of the chunk at `offset`, read while its bytes are still arriving.
    private var awaitedChunk: (length: UInt32, type: UInt32)?
    /// iCCP, sRGB, gAMA, cHRM, cICP (`PNGColorChunks`).
    private(set) var colorChunks = PNGColorChunks()
    /// The Exif and XMP chunks (`PNGMetadataChunks`).
    private(set) var metadataChunks = PNGMetadataChunks()

    init(limits: Limits) {
        self.limits = limits
    }

    /// A first frame whose `IDAT` run is cut inside a chunk is kept with the chunks before
    /// the cut (`DecodingOptions.showsPartialFirstFrame`), as a file that stops between
    /// chunks keeps it, instead of failing the file.
    var keepsCutFirstFrame = false

    /// `advance` stops once frame 0's data has been walked (`firstFrameWalked`), so that
    /// the rest can be walked elsewhere.
    var pausesAfterFirstFrame = false

    /// No chunk after this point changes the index: IEND was read, or a chunk length stopped the walk.
    var isComplete: Bool { sawIEND || breakReason != nil }

    /// Visits the chunks of `bytes` (every byte of the file received so far; earlier calls
    /// saw a prefix of it) from `offset`, up to the first one not complete yet.
    mutating func advance(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        if offset == 0 {
            // A wrong byte of the signature fails as soon as it arrives.
            guard zip(bytes.prefix(8), APNGCoder.signature).allSatisfy({ $0 == $1 }) else {
                throw .invalidData(format: .png, reason: "missing the PNG signature")
            }
            guard bytes.count >= 8 else { return }
            bytesExamined += 8
            offset = 8
        }
        while !isComplete, !(pausesAfterFirstFrame && firstFrameWalked) {
            let length: UInt32, type: UInt32
            if let awaited = awaitedChunk {
                (length, type) = awaited
            } else {
                guard offset + 8 <= bytes.count else { return }
                length = PNGHeader.be32(bytes, offset)
                type = PNGHeader.be32(bytes, offset + 4)
                bytesExamined += 8
                awaitedChunk = (length, type)
            }
            guard length <= 0x7FFF_FFFF else {
                if header == nil { throw .invalidData(format: .png, reason: "chunk length \(length) exceeds 2³¹−1") }
                breakReason = "\(PNGChunkType.name(type)) chunk length \(length) exceeds 2³¹−1"
                return
            }
            let start = offset + 8, end = start + Int(length)
            guard end + 4 <= bytes.count else { return }
            awaitedChunk = nil
            bytesExamined += 4
            if header == nil, type != PNGChunkType.IHDR {
                throw .invalidData(format: .png, reason: "the first chunk is \(PNGChunkType.name(type)), not IHDR")
            }
            if type != PNGChunkType.IDAT, idatState == .inside { idatState = .after }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            let stored = PNGHeader.be32(bytes, end)
            try visit(type: type, chunk: offset..<(end + 4), payload: payload, storedCRC: stored)
            offset = end + 4
        }
    }

    // MARK: - Chunks

    private mutating func visit(
        type: UInt32, chunk: Range<Int>, payload: UnsafeRawBufferPointer,
        storedCRC: UInt32
    ) throws(AnimatedImageError) {
        switch type {
        case PNGChunkType.IDAT, PNGChunkType.IEND: break
        case PNGChunkType.fdAT: bytesExamined += min(4, payload.count)
        case PNGChunkType.IHDR, PNGChunkType.PLTE, PNGChunkType.tRNS, PNGChunkType.acTL, PNGChunkType.fcTL:
            bytesExamined += payload.count  // read (and their CRCs checked) once
        default: break
        }
        switch type {
        case PNGChunkType.IHDR:
            guard header == nil else { throw .invalidData(format: .png, reason: "a second IHDR chunk") }
            try checkCritical(type, payload, storedCRC)
            let h = try PNGHeader(payload)
            try limits.checkSize(width: h.width, height: h.height, format: .png)
            header = h
        case PNGChunkType.PLTE:
            try checkCritical(type, payload, storedCRC)
            if idatState == .before, palette == nil { palette = chunk }
        case PNGChunkType.tRNS:
            if idatState == .before, transparency == nil, crcMatches(type, payload, storedCRC) { transparency = chunk }
        case PNGChunkType.IDAT:
            try visitIDAT(payload: payload, at: chunk.lowerBound + 8, storedCRC: storedCRC)
        case PNGChunkType.IEND:
            sawIEND = true
        case PNGChunkType.acTL:
            visitAcTL(payload, storedCRC)
        case PNGChunkType.fcTL:
            try visitFcTL(payload, storedCRC)
        case PNGChunkType.fdAT:
            try visitFdAT(payload, at: chunk.lowerBound + 8, storedCRC)
        case _ where PNGChunkType.isColor(type):
            bytesExamined += payload.count
            colorChunks.visit(
                type: type, payload: payload, crcMatches: crcMatches(type, payload, storedCRC),
                beforeImage: idatState == .before && palette == nil, limits: limits)
        default:
            // Exif and XMP; other ancillary chunks Zoetrope does not use.
            bytesExamined += metadataChunks.visit(type: type, payload: payload, storedCRC: storedCRC, limits: limits)
        }
    }

    private mutating func visitIDAT(payload: UnsafeRawBufferPointer, at offset: Int, storedCRC: UInt32) throws(AnimatedImageError) {
        switch idatState {
        case .after:
            throw .invalidData(format: .png, reason: "IDAT chunks are not consecutive")
        case .before:
            idatState = .inside
            if numFrames == nil {
                animationIgnored = true
            } else if animationError == nil, let p = pending, frames.isEmpty, !pendingHasData {
                // fcTL before IDAT: the default image is frame 0 and must fill the canvas.
                guard let h = header, p.rect == PixelRect(x: 0, y: 0, width: h.width, height: h.height) else {
                    fail("the fcTL before IDAT is \(p.rect), not the whole \(header?.size.description ?? "") canvas")
                    break
                }
                pending?.usesIDAT = true
                pendingHasData = true
            }
        case .inside:
            break
        }
        try countDataChunk()
        idatChunks.append(
            APNGDataChunk(
                range: offset..<(offset + payload.count),
                headCRC: APNGDataChunk.idatTypeCRC, storedCRC: storedCRC))
    }

    private mutating func visitAcTL(_ p: UnsafeRawBufferPointer, _ storedCRC: UInt32) {
        guard idatState == .before else { return }  // after IDAT: not an APNG (the chunk is ignored)
        guard crcMatches(PNGChunkType.acTL, p, storedCRC) else {
            numFrames = 0  // an animation was meant, but its control chunk is damaged
            return fail("acTL CRC mismatch")
        }
        guard numFrames == nil else { return fail("more than one acTL chunk") }
        guard p.count == 8 else {
            numFrames = 0
            return fail("acTL is \(p.count) bytes, must be 8")
        }
        let n = PNGHeader.be32(p, 0)
        numFrames = n
        numPlays = PNGHeader.be32(p, 4)
        guard n > 0, n <= 0x7FFF_FFFF else { return fail("acTL num_frames \(n) is outside 1…2³¹−1") }
    }

    private mutating func visitFcTL(_ p: UnsafeRawBufferPointer, _ storedCRC: UInt32) throws(AnimatedImageError) {
        guard !animationIgnored, animationError == nil, let h = header else { return }
        guard crcMatches(PNGChunkType.fcTL, p, storedCRC) else { return fail("fcTL CRC mismatch") }
        guard p.count == 26 else { return fail("fcTL is \(p.count) bytes, must be 26") }
        guard checkSequence(PNGHeader.be32(p, 0), in: "fcTL") else { return }
        if pending != nil {
            guard pendingHasData else { return fail("two fcTL chunks without image data between them") }
            frames.append(pending!)
        }
        let w = UInt64(PNGHeader.be32(p, 4)), hh = UInt64(PNGHeader.be32(p, 8))
        let x = UInt64(PNGHeader.be32(p, 12)), y = UInt64(PNGHeader.be32(p, 16))
        let num = PNGHeader.be16(p, 20), den = PNGHeader.be16(p, 22)
        let disposeOp = p[24], blendOp = p[25]
        guard w > 0, hh > 0 else { return fail("fcTL frame size \(w)×\(hh) is empty") }
        guard x + w <= UInt64(h.width), y + hh <= UInt64(h.height) else {
            return fail("fcTL frame \(w)×\(hh)+\(x)+\(y) reaches outside the \(h.width)×\(h.height) canvas")
        }
        guard disposeOp <= 2 else { return fail("fcTL dispose_op \(disposeOp) is not 0, 1 or 2") }
        guard blendOp <= 1 else { return fail("fcTL blend_op \(blendOp) is not 0 or 1") }
        try limits.checkFrameCount(frames.count + 1, format: .apng)
        try limits.checkPixelsPerPlay(frameCount: frames.count + 1, canvas: h.size, format: .apng)
        let isFirst = frames.isEmpty
        let dispose: DisposeMode =
            switch disposeOp {
            case 0: .none
            case 1: .background
            default: isFirst ? .background : .previous  // PREVIOUS on the first frame acts as BACKGROUND
            }
        pending = APNGFrameRecord(
            rect: PixelRect(x: Int(x), y: Int(y), width: Int(w), height: Int(hh)),
            duration: FrameDuration(numerator: Int64(num), denominator: den == 0 ? 100 : Int64(den)),
            dispose: dispose, blend: blendOp == 0 ? .source : .over, usesIDAT: false, chunks: [])
        pendingHasData = false
    }

    private mutating func visitFdAT(_ p: UnsafeRawBufferPointer, at chunkStart: Int, _ storedCRC: UInt32) throws(AnimatedImageError) {
        guard !animationIgnored, animationError == nil else { return }
        guard p.count >= 4 else { return fail("fdAT is \(p.count) bytes, must be at least 4") }
        // The data's CRC is checked when the frame is decoded (frame 0's at the end of the
        // walk), so opening a large file does not read all of it.
        let headCRC = CRC32.checksum(
            UnsafeRawBufferPointer(rebasing: p[0..<4]),
            continuing: CRC32.checksum(type: PNGChunkType.fdAT))
        let data = UnsafeRawBufferPointer(rebasing: p[4...])
        guard checkSequence(PNGHeader.be32(p, 0), in: "fdAT") else { return }
        guard idatState != .before else { return fail("fdAT before IDAT") }
        guard pending != nil else { return fail("fdAT without a preceding fcTL") }
        guard pending?.usesIDAT == false else { return fail("fdAT continues frame 0, whose data is the IDAT image") }
        let offset = chunkStart + 4
        try countDataChunk()
        pending?.chunks.append(APNGDataChunk(range: offset..<(offset + data.count), headCRC: headCRC, storedCRC: storedCRC))
        pendingHasData = true
    }

    // MARK: - Helpers

    /// Each data chunk costs the index (and a frame's segment list) a few dozen bytes, and
    /// a file can hold millions of empty ones: their total counts against the allocation limit.
    private mutating func countDataChunk() throws(AnimatedImageError) {
        dataChunkCount += 1
        let bytes = dataChunkCount * APNGChunkWalker.bytesPerDataChunk
        if bytes > limits.maxAllocationBytes {
            throw .limitExceeded(
                format: numFrames == nil ? .png : .apng, limit: .allocationBytes,
                requested: bytes, allowed: limits.maxAllocationBytes)
        }
    }

    /// Index entry plus three stream segments.
    static let bytesPerDataChunk = MemoryLayout<APNGDataChunk>.stride + 3 * 16

    mutating func fail(_ reason: String) {
        if animationError == nil { animationError = reason }
    }

    private mutating func checkSequence(_ sequence: UInt32, in chunk: String) -> Bool {
        guard sequence == expectedSequence else {
            fail("\(chunk) sequence number \(sequence), expected \(expectedSequence)")
            return false
        }
        expectedSequence &+= 1
        return true
    }

    private func crcMatches(_ type: UInt32, _ payload: UnsafeRawBufferPointer, _ stored: UInt32) -> Bool {
        CRC32.checksum(payload, continuing: CRC32.checksum(type: type)) == stored
    }

    private func checkCritical(_ type: UInt32, _ payload: UnsafeRawBufferPointer, _ stored: UInt32) throws(AnimatedImageError) {
        guard crcMatches(type, payload, stored) else {
            throw .invalidData(format: .png, reason: "\(PNGChunkType.name(type)) CRC mismatch")
        }
    }
}
