import CWebP
import Zoetrope

/// Walks a WebP file's RIFF chunks as its bytes arrive, continuing where it stopped: each
/// chunk header is read once, and a chunk's payload is read once, when all of it is in
/// (the few it needs: `VP8X`, `ANIM`, an `ANMF`'s header and its image chunks' headers,
/// through `WebPGetFeatures`). An unknown chunk is skipped by its size, unread.
///
/// It follows libwebp's demuxer on well-formed files: the canvas from `VP8X` (or the still
/// image's bitstream header), the loop from `ANIM`, and one `WebPFrameRecord` per `ANMF`
/// chunk once all its bytes are in, exactly as `WebPIndex` records it. What it cannot
/// follow exactly (chunks in an order the demuxer reads differently, an `ANMF` whose image
/// chunks do not fill it, bytes left inside the RIFF chunk after the last chunk, a file
/// without the RIFF header) makes it `deferred`: it reports no more frames, and the index
/// is the whole-file one, made when the RIFF end arrives or the data ends. A chunk the
/// demuxer rejects makes it `rejected`, naming the bytes through that chunk, whose
/// whole-file diagnosis the caller makes at once (`WebPIndex` over those bytes).
struct WebPChunkWalker {
    enum Mode: Hashable {
        /// Following the demuxer chunk by chunk.
        case walking
        /// No more frames are reported; the whole-file index decides at the end.
        case deferred
        /// The demuxer rejects the chunk ending at this offset (all of it has arrived).
        case rejected(through: Int)
    }

    private(set) var mode = Mode.walking
    /// The declared RIFF end (8 + the RIFF size), once the header is in.
    private(set) var riffEnd: Int?
    /// Where the next chunk starts (0 before the 12-byte header).
    private(set) var offset = 0
    private(set) var canvas: PixelSize?
    /// The file is a still image (a simple file, or VP8X without the animation flag).
    private(set) var isStill = false
    /// The ANIM loop count as stored (animated files only).
    private(set) var storedLoopCount: Int?
    /// The frames whose bytes have all arrived, as the demuxer indexes them.
    private(set) var frames: [WebPFrameRecord] = []
    /// Bytes read so far: headers and the payload bytes parsed, each once.
    private(set) var bytesExamined = 0

    private var isExtended = false
    private var flags: UInt8 = 0
    private var sawAnim = false
    /// The chunk header at `offset`, read while its payload is still arriving.
    private var awaited: (tag: UInt32, size: Int)?
    /// Where the demuxer goes on after the chunk just visited, when not at its end.
    private var resume: Int?
    /// A top-level `ALPH` chunk of an extended still image: where it starts.
    private var stillAlpha: Int?

    static let maxChunkPayload = 0xFFFF_FFF6
    static let animationFlag: UInt8 = 0x02, alphaFlag: UInt8 = 0x10

    static func tag(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    static let VP8X = tag("VP8X"), VP8 = tag("VP8 "), VP8L = tag("VP8L"), ALPH = tag("ALPH"),
        ANIM = tag("ANIM"), ANMF = tag("ANMF")

    /// Reports no more frames: the whole-file index decides at the end (the caller found
    /// that a rejected chunk's diagnosis depends on bytes still to come).
    mutating func stopReporting() { mode = .deferred }

    /// The RIFF end has been reached (or passed): nothing after it changes the index.
    func isComplete(received: Int) -> Bool {
        guard let riffEnd else { return false }
        return received >= riffEnd
    }

    /// Visits the chunks of `b` (every byte received so far; earlier calls saw a prefix of
    /// it) from `offset`, up to the first one not complete yet. Throws only what the
    /// whole-file source throws for these bytes whatever follows (an unusable header).
    mutating func advance(_ b: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        if offset == 0 {
            guard b.count >= 12 else { return }
            try readHeader(b)
        }
        while mode == .walking, let riffEnd {
            if offset == riffEnd { return }
            // Fewer than 8 bytes left inside the RIFF chunk: the demuxer waits for a header
            // that cannot come. The whole-file index decides.
            guard riffEnd - offset >= 8 else { mode = .deferred; return }
            let tag: UInt32, size: Int
            if let awaited {
                (tag, size) = awaited
            } else {
                guard offset + 8 <= b.count else { return }
                tag = UInt32(WebPChunkScanner.le32(b, offset) & 0xFFFF_FFFF)
                size = WebPChunkScanner.le32(b, offset + 4)
                bytesExamined += 8
                awaited = (tag, size)
            }
            let end = offset + 8 + size + (size & 1)
            guard size <= Self.maxChunkPayload, end <= riffEnd else { mode = .deferred; return }
            let known = [Self.VP8X, Self.VP8, Self.VP8L, Self.ALPH, Self.ANIM, Self.ANMF].contains(tag)
            if !known, offset > 12 {
                // Skipped unread, as the demuxer skips it (an ALPH must be followed by its image).
                if stillAlpha != nil { mode = .deferred; return }
                awaited = nil
                offset = end
                continue
            }
            if offset == 12, tag == Self.VP8 || tag == Self.VP8L, canvas == nil {
                readStillSize(b, chunkEnd: end, headerBytes: tag == Self.VP8L ? 5 : 10)
            }
            guard end <= b.count else { return }
            awaited = nil
            resume = nil
            visit(tag: tag, size: size, b, chunkEnd: end)
            if mode == .walking { offset = resume ?? end }
        }
    }

    private mutating func readHeader(_ b: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        bytesExamined += 12
        offset = 12
        guard WebPChunkScanner.fourCC(b, 0) == "RIFF", WebPChunkScanner.fourCC(b, 8) == "WEBP" else {
            // Not a RIFF file: libwebp may still read it as a bare VP8/VP8L bitstream, which
            // needs the whole file. Bytes that are not one fail now, as the whole file does.
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeaturesInternal(b.baseAddress!, b.count, &features, WEBP_DECODER_ABI_VERSION)
            if status != VP8_STATUS_OK, status != VP8_STATUS_NOT_ENOUGH_DATA {
                throw .invalidData(format: .webp, reason: "no RIFF/WEBP header")
            }
            mode = .deferred
            return
        }
        let declared = WebPChunkScanner.le32(b, 4)
        guard declared >= 12 else {
            throw .invalidData(format: .webp, reason: "RIFF size \(declared) is too small to hold a chunk")
        }
        guard declared <= Self.maxChunkPayload else { mode = .deferred; return }
        riffEnd = 8 + declared
    }

    /// A simple file's canvas: the still image's size, from its bitstream header as soon as
    /// that is in (the demuxer reads it from a partial chunk too).
    private mutating func readStillSize(_ b: UnsafeRawBufferPointer, chunkEnd: Int, headerBytes: Int) {
        let available = min(b.count, chunkEnd) - offset
        guard available >= min(chunkEnd - offset, 8 + headerBytes) else { return }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeaturesInternal(b.baseAddress! + offset, available, &features, WEBP_DECODER_ABI_VERSION)
        guard status == VP8_STATUS_OK, features.width > 0, features.height > 0 else { return }
        bytesExamined += min(available - 8, headerBytes)
        canvas = PixelSize(width: Int(features.width), height: Int(features.height))
        isStill = true
    }

    private mutating func visit(tag: UInt32, size: Int, _ b: UnsafeRawBufferPointer, chunkEnd: Int) {
        let start = offset
        func reject() { mode = .rejected(through: chunkEnd) }
        if start == 12 {
            switch tag {
            case Self.VP8X:
                guard size >= 10 else { return reject() }
                bytesExamined += 10
                isExtended = true
                flags = b[start + 8]
                let width = 1 + WebPChunkScanner.le24(b, start + 12), height = 1 + WebPChunkScanner.le24(b, start + 15)
                guard width * height < 1 << 32 else { return reject() }
                // Unknown flag bits: the demuxer refuses the file, for a reason the whole-file
                // diagnosis finds only from the rest of it.
                guard flags & ~0x3E == 0 else { mode = .deferred; return }
                canvas = PixelSize(width: width, height: height)
                isStill = flags & Self.animationFlag == 0
            case Self.VP8, Self.VP8L:
                addStill(image: start, alpha: nil, b, chunkEnd: chunkEnd)
                // The demuxer reads no more of a simple file than a chunk header after the image.
                if mode == .walking { mode = .deferred }
            default:
                reject()
            }
            return
        }
        switch tag {
        case Self.VP8X:
            reject()
        case Self.ANIM:
            guard size + (size & 1) >= 6 else { return reject() }
            if !sawAnim, !isStill {
                bytesExamined += 6
                storedLoopCount = Int(b[start + 12]) | Int(b[start + 13]) << 8
            }
            sawAnim = true
        case Self.ANMF:
            guard sawAnim else { return reject() }
            guard !isStill else { mode = .deferred; return }
            visitFrame(size: size, b, chunkEnd: chunkEnd)
        case Self.ALPH where isStill && frames.isEmpty && stillAlpha == nil && !sawAnim:
            stillAlpha = start
        case Self.VP8 where isStill && frames.isEmpty && !sawAnim, Self.VP8L where isStill && frames.isEmpty && !sawAnim:
            if tag == Self.VP8L, stillAlpha != nil { return reject() }
            addStill(image: start, alpha: stillAlpha, b, chunkEnd: chunkEnd)
        default:
            // An image chunk where the demuxer expects none: in an animation it fails; in a
            // still image (a second image, after ANIM, an ALPH not followed by its image)
            // the whole-file index decides.
            if isStill { mode = .deferred } else { reject() }
        }
        if stillAlpha != nil, tag != Self.ALPH, mode == .walking { mode = .deferred }
    }

    /// The still image (a simple file's, or an extended file's without the animation flag).
    private mutating func addStill(image: Int, alpha: Int?, _ b: UnsafeRawBufferPointer, chunkEnd: Int) {
        guard let features = Self.features(b, from: image, to: chunkEnd) else {
            mode = .rejected(through: chunkEnd)
            return
        }
        if isExtended { bytesExamined += min(chunkEnd - image - 8, 10) }  // a simple file's was read for its canvas
        let size = PixelSize(width: features.width, height: features.height)
        if isExtended {
            // The demuxer wants the image to be the canvas exactly.
            guard size == canvas else { mode = .rejected(through: chunkEnd); return }
        } else {
            canvas = size
        }
        let keepsAlpha = alpha != nil && flags & Self.alphaFlag != 0
        let first = keepsAlpha ? alpha! : image
        frames.append(
            WebPFrameRecord(
                payloadOffset: first, payloadCount: chunkEnd - first,
                rect: PixelRect(x: 0, y: 0, width: size.width, height: size.height), durationMs: 0,
                blend: .over, dispose: .none, hasAlpha: keepsAlpha || features.hasAlpha,
                isOpaqueLossy: Self.isVP8(b, first)))
        stillAlpha = nil
    }

    /// One `ANMF` chunk, all of whose bytes are in.
    private mutating func visitFrame(size: Int, _ b: UnsafeRawBufferPointer, chunkEnd: Int) {
        let start = offset
        guard size + (size & 1) >= 16, let canvas else { mode = .rejected(through: chunkEnd); return }
        bytesExamined += 16
        let x = 2 * WebPChunkScanner.le24(b, start + 8), y = 2 * WebPChunkScanner.le24(b, start + 11)
        let declaredArea = (1 + WebPChunkScanner.le24(b, start + 14)) * (1 + WebPChunkScanner.le24(b, start + 17))
        let duration = WebPChunkScanner.le24(b, start + 20)
        let bits = b[start + 23]
        guard declaredArea < 1 << 32 else { mode = .rejected(through: chunkEnd); return }
        // Its image chunks: ALPH then VP8, or VP8/VP8L alone, filling the ANMF exactly.
        var p = start + 24, alpha: Int?
        func chunk(at p: Int) -> (tag: UInt32, end: Int)? {
            guard p + 8 <= chunkEnd else { return nil }
            bytesExamined += 8
            let s = WebPChunkScanner.le32(b, p + 4)
            let end = p + 8 + s + (s & 1)
            return end <= chunkEnd ? (UInt32(WebPChunkScanner.le32(b, p) & 0xFFFF_FFFF), end) : nil
        }
        guard var inner = chunk(at: p) else { mode = .deferred; return }
        guard [Self.ALPH, Self.VP8, Self.VP8L].contains(inner.tag) else {
            // No image: the demuxer skips the frame and reads on from its first inner chunk,
            // but the whole-file diagnosis of a later broken frame counts it.
            mode = .deferred
            return
        }
        if inner.tag == Self.ALPH {
            alpha = p
            p = inner.end
            guard let next = chunk(at: p) else { mode = .deferred; return }
            if next.tag == Self.VP8L { mode = .rejected(through: chunkEnd); return }
            inner = next
        }
        guard inner.tag == Self.VP8 || inner.tag == Self.VP8L else { mode = .deferred; return }
        guard let features = Self.features(b, from: p, to: inner.end) else { mode = .rejected(through: chunkEnd); return }
        bytesExamined += min(inner.end - p - 8, 10)
        let rect = PixelRect(x: x, y: y, width: features.width, height: features.height)
        guard rect.x + rect.width <= canvas.width, rect.y + rect.height <= canvas.height else {
            mode = .rejected(through: chunkEnd)
            return
        }
        let first = alpha ?? p
        // The demuxer reads on from the image's end, whatever the ANMF size says past it.
        resume = inner.end
        frames.append(
            WebPFrameRecord(
                payloadOffset: first, payloadCount: inner.end - first, rect: rect, durationMs: duration,
                blend: bits & 2 != 0 ? .source : .over, dispose: bits & 1 != 0 ? .background : .none,
                hasAlpha: alpha != nil || features.hasAlpha, isOpaqueLossy: Self.isVP8(b, first)))
    }

    /// While the first frame's chunk is arriving (the still image's, or the first `ANMF`'s
    /// once its header and its image chunk's header are in): that frame with the bytes of
    /// its image chunks received so far in `b`. Nil otherwise.
    func partialFirstFrame(_ b: UnsafeRawBufferPointer) -> WebPFrameRecord? {
        guard mode == .walking, frames.isEmpty, let canvas, let (tag, _) = awaited, offset + 8 < b.count else { return nil }
        if isStill, tag == Self.VP8 || tag == Self.VP8L, offset == 12 || (isExtended && !sawAnim) {
            let first = isExtended && flags & Self.alphaFlag != 0 ? (stillAlpha ?? offset) : offset
            return WebPFrameRecord(
                payloadOffset: first, payloadCount: b.count - first,
                rect: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height), durationMs: 0,
                blend: .over, dispose: .none, hasAlpha: true, isOpaqueLossy: false)
        }
        guard tag == Self.ANMF, !isStill, sawAnim, offset + 24 + 8 <= b.count else { return nil }
        let start = offset
        let rect = PixelRect(
            x: 2 * WebPChunkScanner.le24(b, start + 8), y: 2 * WebPChunkScanner.le24(b, start + 11),
            width: 1 + WebPChunkScanner.le24(b, start + 14), height: 1 + WebPChunkScanner.le24(b, start + 17))
        let bits = b[start + 23]
        guard rect.x + rect.width <= canvas.width, rect.y + rect.height <= canvas.height else { return nil }
        return WebPFrameRecord(
            payloadOffset: start + 24, payloadCount: b.count - start - 24, rect: rect,
            durationMs: WebPChunkScanner.le24(b, start + 20),
            blend: bits & 2 != 0 ? .source : .over, dispose: bits & 1 != 0 ? .background : .none,
            hasAlpha: true, isOpaqueLossy: false)
    }

    static func isVP8(_ b: UnsafeRawBufferPointer, _ o: Int) -> Bool {
        b[o] == 0x56 && b[o + 1] == 0x50 && b[o + 2] == 0x38 && b[o + 3] == 0x20
    }

    /// `WebPGetFeatures` over one complete image chunk, as the demuxer calls it.
    static func features(_ b: UnsafeRawBufferPointer, from: Int, to: Int) -> (width: Int, height: Int, hasAlpha: Bool)? {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeaturesInternal(b.baseAddress! + from, to - from, &features, WEBP_DECODER_ABI_VERSION)
        guard status == VP8_STATUS_OK, features.width > 0, features.height > 0 else { return nil }
        return (Int(features.width), Int(features.height), features.has_alpha != 0)
    }
}
