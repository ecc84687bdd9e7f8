import Zoetrope

/// The RIFF container of an animated WebP, written by hand so that frames can go to their
/// destination as they are encoded (libwebpmux assembles a whole file in memory).
///
/// Layout: `RIFF` size `WEBP`, `VP8X` (flags, canvas), `ANIM` (background, loop count), then
/// one `ANMF` per frame holding that frame's `ALPH`/`VP8 ` or `VP8L` chunks.
enum WebPContainer {
    /// Bytes before the first `ANMF`: RIFF header (12) + VP8X chunk (18) + ANIM chunk (14).
    static let headerSize = 44

    /// The file's first `headerSize` bytes for `bodySize` bytes of `ANMF` chunks after them.
    static func header(canvas: PixelSize, loopCount: Int, hasAlpha: Bool, bodySize: Int) -> [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(headerSize)
        b += Array("RIFF".utf8); le32(&b, headerSize - 8 + bodySize); b += Array("WEBP".utf8)
        b += Array("VP8X".utf8); le32(&b, 10)
        b.append(0x02 | (hasAlpha ? 0x10 : 0)); b += [0, 0, 0] // animation (+ alpha) flags, reserved
        le24(&b, canvas.width - 1); le24(&b, canvas.height - 1)
        b += Array("ANIM".utf8); le32(&b, 6)
        b += [0, 0, 0, 0] // background colour: transparent (decoders ignore it)
        b.append(UInt8(loopCount & 0xFF)); b.append(UInt8(loopCount >> 8))
        return b
    }

    /// An `ANMF` chunk around `frameData` (complete `ALPH`/`VP8 `/`VP8L` chunks, even length).
    static func frameChunk(_ frameData: [UInt8], rect: PixelRect, durationMs: Int, blend: Bool,
                           disposeToBackground: Bool) -> [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(24 + frameData.count)
        b += Array("ANMF".utf8); le32(&b, 16 + frameData.count)
        le24(&b, rect.x / 2); le24(&b, rect.y / 2); le24(&b, rect.width - 1); le24(&b, rect.height - 1)
        le24(&b, durationMs)
        b.append((blend ? 0 : 0x02) | (disposeToBackground ? 0x01 : 0))
        b += frameData
        return b
    }

    /// The image chunks of a still WebP file from `WebPEncode` (its `RIFF` header and `VP8X`
    /// dropped), and whether the image has alpha (an `ALPH` chunk, or VP8L's alpha bit).
    static func imageChunks(ofStill file: UnsafeRawBufferPointer) -> (data: [UInt8], hasAlpha: Bool)? {
        guard file.count >= 20 else { return nil }
        var data: [UInt8] = []
        data.reserveCapacity(file.count)
        var hasAlpha = false
        var offset = 12
        while offset + 8 <= file.count {
            let tag = String(decoding: file[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(file[offset + 4]) | Int(file[offset + 5]) << 8 | Int(file[offset + 6]) << 16 | Int(file[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard end <= file.count else { return nil }
            switch tag {
            case "VP8X": break
            case "ALPH": hasAlpha = true; data += file[offset..<end]
            case "VP8L":
                if size >= 5, (file[offset + 12] >> 4) & 1 == 1 { hasAlpha = true }
                data += file[offset..<end]
            default: data += file[offset..<end]
            }
            offset = end
        }
        return data.isEmpty ? nil : (data, hasAlpha)
    }

    private static func le24(_ b: inout [UInt8], _ v: Int) {
        b.append(UInt8(v & 0xFF)); b.append(UInt8((v >> 8) & 0xFF)); b.append(UInt8((v >> 16) & 0xFF))
    }

    private static func le32(_ b: inout [UInt8], _ v: Int) {
        le24(&b, v); b.append(UInt8((v >> 24) & 0xFF))
    }
}
