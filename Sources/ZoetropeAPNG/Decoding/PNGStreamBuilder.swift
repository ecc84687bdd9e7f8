import Zoetrope

/// Writes the plain PNG stream libpng reads for one frame: the signature, an IHDR with the
/// frame's size, the file's PLTE and tRNS, the frame's data as IDAT chunks, and IEND.
///
/// Colour-space chunks (gAMA, cHRM, sRGB, iCCP) are left out on purpose: Zoetrope delivers
/// the stored values, as the C reference and Pillow do, and every frame is treated alike.
enum PNGStreamBuilder {
    static let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Bytes `build` writes for `frame`, to check against the limits before allocating.
    static func byteCount(for frame: APNGFrame, index: APNGIndex) -> Int {
        8 + 25 + (index.palette?.count ?? 0) + (index.transparency?.count ?? 0) + iend.count
            + (frame.usesIDAT ? index.idatRun.count : frame.dataByteCount + 12 * frame.chunks.count)
    }

    /// Replaces `out`'s contents (keeping its storage) with `frame`'s PNG stream. Checks
    /// each fdAT's CRC on the way (the one pass over its data that also yields the IDAT CRC).
    static func build(_ frame: APNGFrame, index: APNGIndex, file: UnsafeRawBufferPointer,
                      into out: inout [UInt8]) throws(AnimatedImageError) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(byteCount(for: frame, index: index))
        out.append(contentsOf: APNGCoder.signature)
        let h = index.header
        var ihdr: [UInt8] = [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        appendBE32(&ihdr, UInt32(frame.rect.width))
        appendBE32(&ihdr, UInt32(frame.rect.height))
        ihdr += [h.bitDepth, h.colorType, 0, 0, h.interlace]
        let crc = ihdr.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[4...])) }
        appendBE32(&ihdr, crc)
        out.append(contentsOf: ihdr)
        if let r = index.palette { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: file[r])) }
        if let r = index.transparency { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: file[r])) }
        if frame.usesIDAT {
            // The IDAT run is copied as it stands; libpng checks its CRCs.
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: file[index.idatRun]))
        } else {
            for c in frame.chunks {
                let data = UnsafeRawBufferPointer(rebasing: file[c.range])
                guard let crc = c.idatCRC(data: data) else {
                    throw .invalidData(format: .apng, reason: "fdAT CRC mismatch")
                }
                appendBE32(&out, UInt32(c.range.count))
                appendBE32(&out, PNGChunkType.IDAT)
                out.append(contentsOf: data)
                appendBE32(&out, crc)
            }
        }
        out.append(contentsOf: iend)
    }

    @inline(__always)
    static func appendBE32(_ a: inout [UInt8], _ v: UInt32) {
        a.append(UInt8(v >> 24)); a.append(UInt8(v >> 16 & 0xFF)); a.append(UInt8(v >> 8 & 0xFF)); a.append(UInt8(v & 0xFF))
    }
}
