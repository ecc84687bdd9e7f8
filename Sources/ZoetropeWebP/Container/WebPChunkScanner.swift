import CWebP
import Zoetrope

/// A plain walk over a WebP file's RIFF chunks, independent of libwebp's demuxer.
///
/// The demuxer answers "valid or not"; this walk says *why* a file is not, and where the
/// first broken frame starts, so the frames before it can still be decoded. It also
/// tells whether an `ANIM` chunk is present (the demuxer reports a default loop count
/// when it is missing).
enum WebPChunkScanner {
    /// What went wrong, and at which `ANMF` chunk (file offset and frame index) when a
    /// frame is to blame.
    struct Problem: Sendable, Hashable {
        var reason: String
        var frameOffset: Int?
        var frameIndex: Int?
    }

    /// The reason given when no chunk explains the demuxer's refusal.
    static let genericReason = "libwebp's demuxer rejected the container (chunk order or flags)"
    /// What a chunk reaching past the end of the data is said to do.
    static let pastTheEnd = "past the end of the data"

    static func le24(_ b: UnsafeRawBufferPointer, _ o: Int) -> Int {
        Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16
    }

    static func le32(_ b: UnsafeRawBufferPointer, _ o: Int) -> Int {
        le24(b, o) | Int(b[o + 3]) << 24
    }

    static func fourCC(_ b: UnsafeRawBufferPointer, _ o: Int) -> String {
        String(decoding: b[o..<o + 4], as: UTF8.self)
    }

    /// The end of the RIFF data actually present: the declared RIFF end or the data's end.
    static func riffEnd(_ b: UnsafeRawBufferPointer) -> Int? {
        guard b.count >= 12 else { return nil }
        return min(b.count, 8 + le32(b, 4))
    }

    /// The canvas of a file whose first chunk is a complete `VP8X` (the extended format),
    /// nil otherwise.
    static func extendedCanvas(_ b: UnsafeRawBufferPointer) -> PixelSize? {
        guard b.count >= 30, fourCC(b, 0) == "RIFF", fourCC(b, 8) == "WEBP", fourCC(b, 12) == "VP8X",
            le32(b, 16) >= 10
        else { return nil }
        return PixelSize(width: 1 + le24(b, 24), height: 1 + le24(b, 27))
    }

    /// Whether a top-level `ANIM` chunk is present (before any frame).
    static func hasAnimChunk(_ b: UnsafeRawBufferPointer) -> Bool {
        guard let end = riffEnd(b) else { return false }
        var off = 12
        while off + 8 <= end {
            let tag = fourCC(b, off)
            if tag == "ANIM" { return true }
            if tag == "ANMF" { return false }
            let size = le32(b, off + 4)
            off += 8 + size + (size & 1)
        }
        return false
    }

    /// Explains why the demuxer rejected `b`.
    static func diagnose(_ b: UnsafeRawBufferPointer) -> Problem {
        guard b.count >= 12, fourCC(b, 0) == "RIFF", fourCC(b, 8) == "WEBP" else {
            return Problem(reason: "no RIFF/WEBP header")
        }
        let declared = le32(b, 4)
        guard declared >= 12 else { return Problem(reason: "RIFF size \(declared) is too small to hold a chunk") }
        let end = min(b.count, 8 + declared)
        var off = 12
        var canvas: PixelSize?
        var frameIndex = 0
        var isAnimated = false
        var sawAnim = false
        while off + 8 <= end {
            let tag = fourCC(b, off)
            let size = le32(b, off + 4)
            let next = off + 8 + size + (size & 1)
            let frameOffset: Int? = tag == "ANMF" ? off : nil
            func problem(_ reason: String) -> Problem {
                Problem(reason: reason, frameOffset: frameOffset, frameIndex: frameOffset == nil ? nil : frameIndex)
            }
            if off + 8 + size > end {
                return problem("chunk '\(tag)' at byte \(off) declares \(size) bytes, \(pastTheEnd) (\(end) bytes)")
            }
            switch tag {
            case "VP8X":
                guard size >= 10 else { return problem("VP8X chunk of \(size) bytes, expected 10") }
                isAnimated = b[off + 8] & 0x02 != 0
                canvas = PixelSize(width: 1 + le24(b, off + 12), height: 1 + le24(b, off + 15))
            case "ANIM":
                guard size >= 6 else { return problem("ANIM chunk of \(size) bytes, expected 6") }
                sawAnim = true
            case "ANMF":
                guard isAnimated else { return problem("frame \(frameIndex): ANMF chunk in a file without the animation flag") }
                guard sawAnim else {
                    return Problem(reason: "an animation (ANMF frames) without the ANIM chunk that must precede them")
                }
                guard size >= 16 + 8 else { return problem("frame \(frameIndex): ANMF chunk of \(size) bytes holds no image") }
                let x = 2 * le24(b, off + 8), y = 2 * le24(b, off + 11)
                let imageStart = off + 24, imageEnd = off + 8 + size
                var width: Int32 = 0, height: Int32 = 0
                let ok = WebPGetInfo(b.baseAddress! + imageStart, imageEnd - imageStart, &width, &height)
                guard ok != 0 else {
                    return problem(
                        "frame \(frameIndex): its image bitstream (\(imageEnd - imageStart) bytes at byte \(imageStart)) is not a valid VP8/VP8L image"
                    )
                }
                if let canvas, x + Int(width) > canvas.width || y + Int(height) > canvas.height {
                    return problem("frame \(frameIndex): \(width)×\(height) at (\(x), \(y)) reaches outside the \(canvas) canvas")
                }
                frameIndex += 1
            case "VP8 ", "VP8L":
                var width: Int32 = 0, height: Int32 = 0
                if WebPGetInfo(b.baseAddress! + off, size + 8, &width, &height) == 0 {
                    return problem("the still image's \(tag) bitstream is invalid")
                }
                if let canvas, canvas != PixelSize(width: Int(width), height: Int(height)) {
                    return problem("the still image is \(width)×\(height) but the VP8X canvas is \(canvas)")
                }
            default:
                break
            }
            off = next
        }
        return Problem(reason: genericReason)
    }
}
