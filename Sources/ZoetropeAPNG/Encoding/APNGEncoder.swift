import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes animated PNGs, losslessly.
///
/// Frame 0 is the default image (an fcTL precedes its IDAT, so it is part of the
/// animation). Each later frame stores only the rectangle that changed since the frame
/// before, with blend SOURCE and dispose NONE, so decoding reproduces every canvas exactly.
/// The pixel data of each rectangle is compressed by libpng (through `PNGEncoder`).
/// The first frame's depth is the file's: RGBA16 frames make a 16-bit APNG (later RGBA8
/// frames widen exactly), RGBA8 ones an 8-bit APNG (later RGBA16 frames round).
/// Frames stream in through `APNGStreamWriter`, which keeps only the previous canvas and the output.
///
/// Colour and metadata from `EncodingOptions` are written after `IHDR`, before `acTL`:
/// `iCCP` (the profile, zlib-compressed), `sRGB` (only without a profile), `gAMA`, `cHRM`,
/// `cICP` (primaries and transfer; matrix 0 and full range, as PNG's RGB values are), `eXIf`
/// for Exif and an `iTXt` chunk `XML:com.adobe.xmp` for XMP. Without them the file is what
/// it was before they existed.
public struct APNGEncoder: AnimatedImageEncoder {
    /// Favour encoding speed over file size (libpng's fast setting).
    public var fast: Bool

    /// An encoder; the default favours small files (libpng's default zlib effort).
    public init(fast: Bool = false) {
        self.fast = fast
    }

    /// Always `.apng` (a single frame still makes a one-frame APNG).
    public var encodingFormat: ImageFormat { .apng }

    /// Opens a streaming writer. Durations are stored as `num/den` seconds, exactly when
    /// both fit 16 bits, otherwise rounded to the finest of ms, cs, ds or s that fits.
    /// `options.quality` is ignored (PNG is lossless). Plays: 1…2³²−1 or infinite; more
    /// are stored as 2³²−1 (`storedLoopCount(for:)`).
    public func makeWriter(canvasSize: PixelSize, options: EncodingOptions) throws -> any AnimatedImageWriter {
        guard canvasSize.width > 0, canvasSize.height > 0,
            canvasSize.width <= 0x7FFF_FFFF, canvasSize.height <= 0x7FFF_FFFF
        else {
            throw AnimatedImageError.invalidArgument("APNGEncoder canvas \(canvasSize) is outside 1…2³¹−1")
        }
        let plays: UInt32
        switch storedLoopCount(for: options.loopCount ?? .infinite) {
        case .infinite: plays = 0
        case .plays(let n):
            guard n >= 1 else {
                throw AnimatedImageError.invalidArgument("APNG stores 1…\(UInt32.max) plays, not \(n)")
            }
            plays = UInt32(n)
        }
        let description = try PNGDescriptionChunks.chunks(color: options.color, metadata: options.metadata)
        return APNGStreamWriter(canvasSize: canvasSize, plays: plays, fast: fast, description: description)
    }

    /// True: RGBA16 frames make a 16-bit APNG.
    public var storesDeepPixels: Bool { true }

    /// Every part: PNG has a chunk for each (`iCCP`, `sRGB`, `gAMA`, `cHRM`, `cICP`, `eXIf`, `iTXt`).
    public var writableParts: EmbeddedParts { .all }

    /// `loopCount` with more than 2³²−1 plays (`num_plays`' range) lowered to 2³²−1.
    public func storedLoopCount(for loopCount: LoopCount) -> LoopCount {
        loopCount.capped(at: Int(UInt32.max))
    }

    /// The smallest rectangle holding every pixel that differs, or nil when none does.
    static func changedRect(_ a: PixelBuffer, _ b: PixelBuffer) -> PixelRect? {
        precondition(a.format.channelDepth == b.format.channelDepth, "both canvases at one depth")
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let w = a.width, bpp = a.format.bytesPerPixel
        a.bytes.withUnsafeBytes { pa in
            b.bytes.withUnsafeBytes { pb in
                for y in 0..<a.height {
                    let ra = pa.baseAddress! + y * a.bytesPerRow, rb = pb.baseAddress! + y * b.bytesPerRow
                    guard memcmp(ra, rb, w * bpp) != 0 else { continue }
                    minY = min(minY, y)
                    maxY = y
                    var x0 = 0
                    while x0 < w, memcmp(ra + x0 * bpp, rb + x0 * bpp, bpp) == 0 { x0 += 1 }
                    var x1 = w - 1
                    while x1 > x0, memcmp(ra + x1 * bpp, rb + x1 * bpp, bpp) == 0 { x1 -= 1 }
                    minX = min(minX, x0)
                    maxX = max(maxX, x1)
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// fcTL data: the rectangle, the delay, dispose NONE, blend SOURCE.
    static func fcTL(sequence: UInt32, rect: PixelRect, duration: FrameDuration) -> Data {
        var p = Data()
        for v in [sequence, UInt32(rect.width), UInt32(rect.height), UInt32(rect.x), UInt32(rect.y)] { appendBE32(&p, v) }
        let (num, den) = delay(duration)
        p.append(contentsOf: [UInt8(num >> 8), UInt8(num & 0xFF), UInt8(den >> 8), UInt8(den & 0xFF), 0, 0])
        return p
    }

    /// `duration` as APNG's 16-bit `num/den`: exact when it fits, else the finest unit that does.
    static func delay(_ d: FrameDuration) -> (UInt16, UInt16) {
        if d.numerator <= 0xFFFF, d.denominator <= 0xFFFF { return (UInt16(d.numerator), UInt16(d.denominator)) }
        for den: Int64 in [1000, 100, 10, 1] {
            let num = (Int128(d.numerator) * Int128(den) + Int128(d.denominator) / 2) / Int128(d.denominator)
            if num <= 0xFFFF { return (UInt16(num), UInt16(den)) }
        }
        return (0xFFFF, 1)
    }

    /// The chunks of a PNG libpng wrote (well formed, so read without checks beyond bounds).
    static func chunks(of png: Data) -> [(type: UInt32, payload: Data)] {
        var result: [(UInt32, Data)] = []
        var offset = 8
        while let length = ByteSignature.uint32BE(png, at: offset), let type = ByteSignature.uint32BE(png, at: offset + 4) {
            let start = offset + 8, end = start + Int(length)
            guard end + 4 <= png.count else { break }
            result.append((type, png.subdata(in: (png.startIndex + start)..<(png.startIndex + end))))
            offset = end + 4
        }
        return result
    }

    static func appendChunk(_ out: inout Data, _ type: UInt32, _ payload: Data) {
        appendBE32(&out, UInt32(payload.count))
        var typeAndPayload = Data()
        appendBE32(&typeAndPayload, type)
        typeAndPayload.append(payload)
        out.append(typeAndPayload)
        let crc = typeAndPayload.withUnsafeBytes { CRC32.checksum($0) }
        appendBE32(&out, crc)
    }

    static func appendBE32(_ d: inout Data, _ v: UInt32) {
        d.append(contentsOf: [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    }
}
