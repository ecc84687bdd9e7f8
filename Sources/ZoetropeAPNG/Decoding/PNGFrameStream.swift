import CZoetropePNG
import Zoetrope

/// One frame as the plain PNG stream libpng reads: the signature, an IHDR with the frame's
/// size, the file's PLTE and tRNS, the frame's data as IDAT chunks, and IEND.
///
/// The stream is a list of segments, so the compressed data is read where it lies in the
/// file and never copied; only the small headers are written here. Colour-space chunks
/// (gAMA, cHRM, sRGB, iCCP) are left out on purpose: Zoetrope delivers the stored values,
/// as the C reference and Pillow do, and every frame is treated alike.
struct PNGFrameStream: Sendable {
    /// Signature, IHDR, PLTE, tRNS.
    private var head: [UInt8] = []
    /// Per data chunk, 12 bytes: length and "IDAT" (before the data), then the CRC (after).
    private var framing: [UInt8] = []

    static let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Bytes this value holds.
    var byteCount: Int {
        head.capacity + framing.capacity
    }

    /// Bytes `prepare` keeps for `frame`, to check against the limits before allocating.
    static func byteCount(for frame: APNGFrameRecord, index: APNGIndex) -> Int {
        8 + 25 + (index.palette?.count ?? 0) + (index.transparency?.count ?? 0)
            + frame.chunks.count * (12 + 2 * MemoryLayout<zoetrope_png_segment>.stride) + 64
    }

    /// Lays out `frame`'s stream, checking each data chunk's CRC on the way (one pass over
    /// its data, which also yields the CRC of the rewritten IDAT chunk).
    mutating func prepare(
        _ frame: APNGFrameRecord, index: APNGIndex, file: UnsafeRawBufferPointer,
        format: ImageFormat
    ) throws(AnimatedImageError) {
        head.removeAll(keepingCapacity: true)
        head.append(contentsOf: APNGCoder.signature)
        let h = index.header
        let ihdrStart = head.count
        PNGFrameStream.appendBE32(&head, 13)
        PNGFrameStream.appendBE32(&head, PNGChunkType.IHDR)
        PNGFrameStream.appendBE32(&head, UInt32(frame.rect.width))
        PNGFrameStream.appendBE32(&head, UInt32(frame.rect.height))
        head.append(contentsOf: [h.bitDepth, h.colorType, 0, 0, h.interlace])
        let crc = head.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(ihdrStart + 4)...])) }
        PNGFrameStream.appendBE32(&head, crc)
        if let r = index.palette { head.append(contentsOf: UnsafeRawBufferPointer(rebasing: file[r])) }
        if let r = index.transparency { head.append(contentsOf: UnsafeRawBufferPointer(rebasing: file[r])) }
        framing.removeAll(keepingCapacity: true)
        for c in frame.chunks {
            guard let crc = c.idatCRC(data: UnsafeRawBufferPointer(rebasing: file[c.range])) else {
                throw .invalidData(format: format, reason: "\(frame.usesIDAT ? "IDAT" : "fdAT") CRC mismatch")
            }
            PNGFrameStream.appendBE32(&framing, UInt32(c.range.count))
            PNGFrameStream.appendBE32(&framing, PNGChunkType.IDAT)
            PNGFrameStream.appendBE32(&framing, crc)
        }
    }

    /// How a decode ended.
    struct Outcome {
        /// Bytes of the frame's PNG stream libpng read: bounded by what the rows need plus
        /// one 8 KiB read buffer, however long the zlib stream goes on after the last row.
        var bytesRead = 0
        /// Set when the image data ended (inflated to fewer bytes than the rows need): the
        /// rows before `row` in `pass`, and every earlier pass, are in place; no other pixel is.
        var broken: (pass: Int, row: Int, message: String)?
    }

    /// Decodes the prepared stream of `frame` to straight RGBA rows at `depth` at `destination`.
    /// Throws when libpng fails (a header it rejects, corrupt compressed data); image data
    /// that ends before the last row comes back in `Outcome.broken`. The segment list points into `file`
    /// and this value's buffers, so it lives only for the call (one small allocation per frame).
    @discardableResult
    func decode(
        _ frame: APNGFrameRecord, file: UnsafeRawBufferPointer, into destination: UnsafeMutableRawPointer,
        bytesPerRow: Int, limits: Limits, format: ImageFormat, depth: ChannelDepth = .eight
    ) throws(AnimatedImageError) -> Outcome {
        var cLimits = zoetrope_png_limits(
            max_width: UInt32(clamping: min(limits.maxWidth, 0x7FFF_FFFF)),
            max_height: UInt32(clamping: min(limits.maxHeight, 0x7FFF_FFFF)),
            // The stream's only ancillary chunk is tRNS (at most 256 bytes).
            chunk_malloc_max: min(65_536, max(0, limits.maxAllocationBytes)),
            chunk_cache_max: 8)
        let segmentCount = 3 * frame.chunks.count + 2
        var progress = zoetrope_png_progress()
        // The segment list and the message buffer live on the stack when small.
        let failure: String? = withUnsafeTemporaryAllocation(of: zoetrope_png_segment.self, capacity: segmentCount) { segs in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { message in
                head.withUnsafeBytes { head in
                    framing.withUnsafeBytes { framing in
                        PNGFrameStream.iend.withUnsafeBytes { iend in
                            func bytes(_ p: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> zoetrope_png_segment {
                                zoetrope_png_segment(bytes: p.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: count)
                            }
                            segs[0] = bytes(head, 0, head.count)
                            var n = 1
                            for (k, c) in frame.chunks.enumerated() {
                                segs[n] = bytes(framing, k * 12, 8)
                                segs[n + 1] = bytes(file, c.range.lowerBound, c.range.count)
                                segs[n + 2] = bytes(framing, k * 12 + 8, 4)
                                n += 3
                            }
                            segs[n] = bytes(iend, 0, iend.count)
                            let status = zoetrope_png_decode_rgba(
                                segs.baseAddress, segmentCount, UInt32(frame.rect.width), UInt32(frame.rect.height),
                                destination.assumingMemoryBound(to: UInt8.self), bytesPerRow, depth == .sixteen ? 1 : 0, &cLimits,
                                1, message.baseAddress, 256, &progress)
                            guard status != 0 else { return nil }
                            return String(cString: message.baseAddress!)
                        }
                    }
                }
            }
        }
        var outcome = Outcome(bytesRead: progress.bytes_read)
        if let failure {
            guard progress.data_ended != 0 else { throw .codecFailure(format: format, library: "libpng", message: failure) }
            outcome.broken = (Int(progress.pass), Int(progress.row), failure)
        }
        return outcome
    }

    @inline(__always)
    static func appendBE32(_ a: inout [UInt8], _ v: UInt32) {
        a.append(UInt8(v >> 24)); a.append(UInt8(v >> 16 & 0xFF)); a.append(UInt8(v >> 8 & 0xFF)); a.append(UInt8(v & 0xFF))
    }
}
