import Zoetrope

/// The RIFF container of an animated WebP, written by hand so that frames can go to their
/// destination as they are encoded (libwebpmux assembles a whole file in memory).
///
/// Layout (the WebP container specification's order): `RIFF` size `WEBP`, `VP8X` (flags,
/// canvas), `ICCP` (when a profile is written), `ANIM` (background, loop count), one `ANMF`
/// per frame holding that frame's `ALPH`/`VP8 ` or `VP8L` chunks, then `EXIF` and `XMP `
/// (when given).
enum WebPContainer {
    /// Bytes before the first `ANMF` without a profile: RIFF header (12) + VP8X chunk (18)
    /// + ANIM chunk (14).
    static let headerSize = 44

    /// VP8X flags.
    static let animationFlag: UInt8 = 0x02, alphaFlag: UInt8 = 0x10, iccFlag: UInt8 = 0x20,
        exifFlag: UInt8 = 0x08, xmpFlag: UInt8 = 0x04

    /// Bytes before the first `ANMF` when `profile` is written (an `ICCP` chunk more).
    static func headerSize(profile: ICCProfile?) -> Int {
        headerSize + (profile.map { chunkSize($0.data.count) } ?? 0)
    }

    /// The file's first `headerSize(profile:)` bytes for `bodySize` bytes of `ANMF` (and
    /// trailing `EXIF`/`XMP `) chunks after them. `trailerFlags` are the VP8X flags of the
    /// trailing chunks.
    static func header(
        canvas: PixelSize, loopCount: Int, hasAlpha: Bool, bodySize: Int,
        profile: ICCProfile? = nil, trailerFlags: UInt8 = 0
    ) -> [UInt8] {
        let size = headerSize(profile: profile)
        var b: [UInt8] = []
        b.reserveCapacity(size)
        b += Array("RIFF".utf8); le32(&b, size - 8 + bodySize); b += Array("WEBP".utf8)
        b += Array("VP8X".utf8); le32(&b, 10)
        b.append(animationFlag | (hasAlpha ? alphaFlag : 0) | (profile == nil ? 0 : iccFlag) | trailerFlags)
        b += [0, 0, 0]  // reserved
        le24(&b, canvas.width - 1); le24(&b, canvas.height - 1)
        if let profile { b += chunk("ICCP", profile.data) }
        b += Array("ANIM".utf8); le32(&b, 6)
        b += [0, 0, 0, 0]  // background colour: transparent (decoders ignore it)
        b.append(UInt8(loopCount & 0xFF)); b.append(UInt8(loopCount >> 8))
        return b
    }

    /// The `EXIF` and `XMP ` chunks that follow the image data, and their VP8X flags.
    static func trailer(_ metadata: EmbeddedMetadata) -> (bytes: [UInt8], flags: UInt8) {
        var b: [UInt8] = [], flags: UInt8 = 0
        if let exif = metadata.exif { b += chunk("EXIF", exif); flags |= exifFlag }
        if let xmp = metadata.xmp { b += chunk("XMP ", xmp); flags |= xmpFlag }
        return (b, flags)
    }

    /// A still file from libwebp (`WebPEncode`'s simple or extended file) rewritten in the
    /// extended format with `profile` and `metadata`: `VP8X`, `ICCP`, its image chunks,
    /// `EXIF`, `XMP `. Nil when the file cannot be read or the result would pass 4 GiB.
    static func still(
        _ file: UnsafeRawBufferPointer, canvas: PixelSize, profile: ICCProfile?,
        metadata: EmbeddedMetadata
    ) -> [UInt8]? {
        guard let image = imageChunks(ofStill: file) else { return nil }
        let (trailing, trailerFlags) = trailer(metadata)
        let iccp = profile.map { chunk("ICCP", $0.data) } ?? []
        let riffSize = 4 + 18 + iccp.count + image.data.count + trailing.count
        guard riffSize <= Int(UInt32.max) - 1 else { return nil }
        var b: [UInt8] = []
        b.reserveCapacity(8 + riffSize)
        b += Array("RIFF".utf8); le32(&b, riffSize); b += Array("WEBP".utf8)
        b += Array("VP8X".utf8); le32(&b, 10)
        b.append((image.hasAlpha ? alphaFlag : 0) | (profile == nil ? 0 : iccFlag) | trailerFlags)
        b += [0, 0, 0]
        le24(&b, canvas.width - 1); le24(&b, canvas.height - 1)
        b += iccp
        b += image.data
        b += trailing
        return b
    }

    /// The bytes a chunk of `payloadCount` bytes takes: header, payload, padding to even.
    static func chunkSize(_ payloadCount: Int) -> Int { 8 + payloadCount + (payloadCount & 1) }

    /// One chunk: tag, little-endian size, payload, a zero byte when the size is odd.
    static func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(chunkSize(payload.count))
        b += Array(tag.utf8); le32(&b, payload.count)
        b += payload
        if payload.count & 1 == 1 { b.append(0) }
        return b
    }

    /// An `ANMF` chunk around `frameData` (complete `ALPH`/`VP8 `/`VP8L` chunks, even length).
    static func frameChunk(
        _ frameData: [UInt8], rect: PixelRect, durationMs: Int, blend: Bool,
        disposeToBackground: Bool
    ) -> [UInt8] {
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
