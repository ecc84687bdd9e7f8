import CPNG
import Zoetrope

extension PNGChunkType {
    static let iCCP = code("iCCP")
    static let sRGB = code("sRGB")
    static let gAMA = code("gAMA")
    static let cHRM = code("cHRM")
    static let cICP = code("cICP")

    /// The chunks `PNGColorChunks` reads.
    static func isColor(_ type: UInt32) -> Bool {
        type == iCCP || type == sRGB || type == gAMA || type == cHRM || type == cICP
    }
}

/// PNG's colour chunks as the chunk walker meets them: `iCCP` (inflated), `sRGB`, `gAMA`,
/// `cHRM` and `cICP`, into a `ColorInfo`.
///
/// Each counts only before `PLTE` and `IDAT`, where the PNG specification puts it (libpng
/// ignores one out of place too); the first of each type counts. A chunk with a bad CRC,
/// the wrong length or out-of-range values is ignored with a warning, so the file decodes
/// as if it were absent. Every declaration is reported; which one converts is
/// `ColorPrecedence.codePointsFirst` (PNG third edition: `cICP`, `iCCP`, `sRGB`, then
/// `cHRM` with `gAMA`).
struct PNGColorChunks: Sendable {
    private(set) var color = ColorInfo.unspecified
    /// What was ignored and why, one line each (for `AnimationInfo.warnings`).
    private(set) var warnings: [String] = []
    private var seen: Set<UInt32> = []

    /// Largest inflated `iCCP` profile kept (real profiles are a few KiB to a few hundred).
    static let maxProfileBytes = 4 << 20

    /// Reads one colour chunk; `beforeImage` says whether it comes before `PLTE` and `IDAT`.
    mutating func visit(
        type: UInt32, payload p: UnsafeRawBufferPointer, crcMatches: Bool,
        beforeImage: Bool, limits: Limits
    ) {
        let name = PNGChunkType.name(type)
        guard beforeImage else { return warn("\(name) after PLTE or IDAT ignored") }
        guard seen.insert(type).inserted else { return warn("a second \(name) chunk ignored") }
        guard crcMatches else { return warn("\(name) CRC mismatch: chunk ignored") }
        switch type {
        case PNGChunkType.sRGB:
            guard p.count == 1, p[0] <= 3 else { return warn("sRGB chunk of \(p.count) bytes or intent over 3 ignored") }
            color.srgbRenderingIntent = p[0]
        case PNGChunkType.gAMA:
            guard p.count == 4, PNGHeader.be32(p, 0) > 0 else { return warn("gAMA chunk invalid (length \(p.count) or gamma 0): ignored") }
            color.gamma = PNGHeader.be32(p, 0)
        case PNGChunkType.cHRM:
            guard p.count == 32 else { return warn("cHRM chunk of \(p.count) bytes, not 32: ignored") }
            let v = (0..<8).map { PNGHeader.be32(p, $0 * 4) }
            guard v.allSatisfy({ $0 <= 0x7FFF_FFFF }) else { return warn("cHRM value over 2³¹−1 ignored") }
            color.chromaticities = Chromaticities(
                whiteX: v[0], whiteY: v[1], redX: v[2], redY: v[3],
                greenX: v[4], greenY: v[5], blueX: v[6], blueY: v[7])
        case PNGChunkType.cICP:
            guard p.count == 4 else { return warn("cICP chunk of \(p.count) bytes, not 4: ignored") }
            // PNG holds RGB: matrix coefficients must be 0 (identity); range 0 or 1.
            guard p[2] == 0, p[3] <= 1 else {
                return warn("cICP matrix \(p[2]) (must be 0) or range flag \(p[3]) (must be 0 or 1): ignored")
            }
            color.codePoints = ColorCodePoints(primaries: UInt16(p[0]), transfer: UInt16(p[1]), matrix: 0, fullRange: p[3] == 1)
        case PNGChunkType.iCCP:
            readICCP(p, limits: limits)
        default:
            break
        }
    }

    private mutating func warn(_ line: String) {
        warnings.append(line)
    }

    /// iCCP: a 1–79 byte Latin-1 name, a NUL, compression method 0, then a zlib stream.
    private mutating func readICCP(_ p: UnsafeRawBufferPointer, limits: Limits) {
        guard let nul = p.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 <= p.count else {
            return warn("iCCP profile name is not 1 to 79 bytes ended by NUL: ignored")
        }
        guard p[nul + 1] == 0 else { return warn("iCCP compression method \(p[nul + 1]) is not 0: ignored") }
        let cap = min(PNGColorChunks.maxProfileBytes, max(0, limits.maxAllocationBytes))
        switch PNGColorChunks.inflate(UnsafeRawBufferPointer(rebasing: p[(nul + 2)...]), cap: cap) {
        case .success(let profile):
            color.iccProfile = ICCProfile(data: profile)
        case .failure(let reason):
            warn("iCCP profile \(reason): ignored")
        }
    }

    /// Inflates a whole zlib stream of at most `cap` bytes.
    static func inflate(_ input: UnsafeRawBufferPointer, cap: Int) -> Result<[UInt8], InflateFailureReason> {
        guard input.count > 0, let inCount = UInt32(exactly: input.count) else { return .failure(.init("data is empty")) }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .failure(.init("cannot be inflated (zlib)"))
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: min(cap, max(4096, input.count * 4)))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = inCount
        while true {
            if produced == out.count {
                guard out.count < cap else { return .failure(.init("inflates to more than \(cap) bytes")) }
                out += [UInt8](repeating: 0, count: min(cap - out.count, out.count))
            }
            let status = out.withUnsafeMutableBytes { raw -> Int32 in
                stream.next_out = raw.bindMemory(to: Bytef.self).baseAddress! + produced
                stream.avail_out = UInt32(raw.count - produced)
                let s = CPNG.inflate(&stream, Z_NO_FLUSH)
                produced = raw.count - Int(stream.avail_out)
                return s
            }
            switch status {
            case Z_STREAM_END:
                out.removeLast(out.count - produced)
                return .success(out)
            case Z_OK:
                if stream.avail_in == 0, produced < out.count { return .failure(.init("data is cut short")) }
            case Z_BUF_ERROR where stream.avail_in == 0:
                return .failure(.init("data is cut short"))
            case Z_BUF_ERROR:
                continue
            default:
                return .failure(.init("data is corrupt (zlib \(status))"))
            }
        }
    }

    struct InflateFailureReason: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}

extension PNGColorChunks.InflateFailureReason: CustomStringConvertible {
    var description: String { text }
}
