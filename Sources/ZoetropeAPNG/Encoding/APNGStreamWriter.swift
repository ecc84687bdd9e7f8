import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `APNGEncoder`'s streaming session: holds the previous canvas (for the changed rectangle)
/// and the output so far. The frame count in `acTL` is written as 0 and patched (with its
/// CRC) at `finish()`.
final class APNGStreamWriter: AnimatedImageWriter {
    private let canvasSize: PixelSize
    private let plays: UInt32
    private let png: PNGEncoder
    private var out = Data()
    private var previous: PixelBuffer?
    private var sequence: UInt32 = 0
    private var finished = false
    /// Where the `acTL` chunk's payload starts in `out`.
    private var actlOffset = 0
    private(set) var frameCount = 0
    /// The colour and metadata chunks written after `IHDR` (`PNGDescriptionChunks`).
    private let description: [(type: UInt32, payload: Data)]

    init(canvasSize: PixelSize, plays: UInt32, fast: Bool, description: [(type: UInt32, payload: Data)] = []) {
        self.description = description
        self.canvasSize = canvasSize
        self.plays = plays
        self.png = PNGEncoder(fast: fast)
    }

    func add(_ frame: EncodingFrame) throws {
        guard !finished else { throw AnimatedImageError.invalidArgument("APNGEncoder: frame added after finish()") }
        guard frameCount < Int(UInt32.max) / 2 else { throw AnimatedImageError.invalidArgument("APNG stores fewer than 2³¹ frames") }
        // The file's depth is the first frame's.
        let pixels = try frame.straightPixels(canvasSize: canvasSize, index: frameCount, channelDepth: previous?.format.channelDepth)
        let full = PixelRect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height)
        let rect: PixelRect
        let chunks: [(type: UInt32, payload: Data)]
        if let previous {
            rect = APNGEncoder.changedRect(previous, pixels) ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
            chunks = APNGEncoder.chunks(of: try png.encode(pixels, region: rect))
        } else {
            rect = full
            chunks = APNGEncoder.chunks(of: try png.encode(pixels))
            try writeHeader(chunks)
        }
        APNGEncoder.appendChunk(&out, PNGChunkType.fcTL, APNGEncoder.fcTL(sequence: sequence, rect: rect, duration: frame.duration))
        sequence += 1
        for c in chunks where c.type == PNGChunkType.IDAT {
            if previous == nil {
                APNGEncoder.appendChunk(&out, PNGChunkType.IDAT, c.payload)
            } else {
                var fdat = Data()
                APNGEncoder.appendBE32(&fdat, sequence)
                fdat.append(c.payload)
                APNGEncoder.appendChunk(&out, PNGChunkType.fdAT, fdat)
                sequence += 1
            }
        }
        previous = pixels
        frameCount += 1
    }

    /// Signature, libpng's IHDR for frame 0, the colour and metadata chunks, and an `acTL` whose frame count is patched later.
    private func writeHeader(_ chunks: [(type: UInt32, payload: Data)]) throws {
        guard let ihdr = chunks.first(where: { $0.type == PNGChunkType.IHDR }) else {
            throw AnimatedImageError.codecFailure(format: .apng, library: "libpng", message: "no IHDR in its output")
        }
        out = Data(APNGCoder.signature)
        APNGEncoder.appendChunk(&out, PNGChunkType.IHDR, ihdr.payload)
        for chunk in description { APNGEncoder.appendChunk(&out, chunk.type, chunk.payload) }
        var actl = Data()
        APNGEncoder.appendBE32(&actl, 0)
        APNGEncoder.appendBE32(&actl, plays)
        actlOffset = out.count + 8
        APNGEncoder.appendChunk(&out, PNGChunkType.acTL, actl)
    }

    func finish() throws -> Data {
        guard frameCount > 0 else { throw AnimatedImageError.invalidArgument("APNGEncoder needs at least one frame") }
        guard !finished else { return out }
        finished = true
        var actl = Data()
        APNGEncoder.appendBE32(&actl, UInt32(frameCount))
        APNGEncoder.appendBE32(&actl, plays)
        var typeAndPayload = Data()
        APNGEncoder.appendBE32(&typeAndPayload, PNGChunkType.acTL)
        typeAndPayload.append(actl)
        var crc = Data()
        APNGEncoder.appendBE32(&crc, typeAndPayload.withUnsafeBytes { CRC32.checksum($0) })
        out.replaceSubrange(actlOffset..<actlOffset + 8, with: actl)
        out.replaceSubrange(actlOffset + 8..<actlOffset + 12, with: crc)
        APNGEncoder.appendChunk(&out, PNGChunkType.IEND, Data())
        return out
    }
}
