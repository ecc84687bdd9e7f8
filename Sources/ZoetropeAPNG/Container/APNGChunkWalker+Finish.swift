import Zoetrope

extension APNGChunkWalker {
    /// The index, with the file ending after `bytes` (all of them given to `advance`): a
    /// chunk cut short becomes the truncation, and the rules that need the whole file apply
    /// (the frame count against acTL, frame 0's data CRCs: a damaged fdAT there falls back
    /// to the still image, a damaged IDAT image shown first fails). Throws when the file
    /// cannot be decoded at all.
    mutating func finish(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) -> APNGIndex {
        let index = try finishIndex(bytes)
        // Frame 0 shows at once: when it is the IDAT image, damaged data there means there is
        // nothing to show, so the file fails to open as its first decode would.
        if let first = index.frames.first, first.usesIDAT {
            for c in first.chunks where c.idatCRC(data: UnsafeRawBufferPointer(rebasing: bytes[c.range])) == nil {
                throw .invalidData(format: index.format, reason: "IDAT CRC mismatch")
            }
        }
        return index
    }

    private mutating func finishIndex(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) -> APNGIndex {
        guard offset > 0 else { throw .invalidData(format: .png, reason: "missing the PNG signature") }
        if !isComplete {
            if offset >= bytes.count {
                breakReason = "the file ends before IEND"
                cleanBreak = true
            } else if offset + 8 > bytes.count {
                breakReason = "a chunk header is cut short"
            } else {
                breakReason = "the \(PNGChunkType.name(PNGHeader.be32(bytes, offset + 4))) chunk is cut short"
            }
        }
        guard let header else {
            throw .truncated(format: .png, completeFrames: 0, reason: breakReason ?? "no IHDR chunk")
        }
        guard idatState != .before else {
            if let breakReason { throw .truncated(format: .png, completeFrames: 0, reason: breakReason) }
            throw .invalidData(format: .png, reason: "no IDAT chunk: the file holds no image")
        }
        if idatState == .inside, !cleanBreak, let breakReason {
            // The still image (and so everything) is cut inside its data: kept from the
            // whole chunks before the cut when asked, as a stop between chunks is.
            guard keepsCutFirstFrame else { throw .truncated(format: .png, completeFrames: 0, reason: breakReason) }
            cleanBreak = true
        }
        let canvas = header.size
        let still = APNGFrameRecord(
            rect: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height),
            duration: .zero, dispose: .none, blend: .source, usesIDAT: true, chunks: idatChunks)
        var index = APNGIndex(
            header: header, palette: palette, transparency: transparency,
            frames: [still], format: .png,
            numPlays: nil, fallbackReason: nil, truncation: nil)
        index.color = colorChunks.color
        index.colorWarnings = colorChunks.warnings
        index.metadata = metadataChunks.metadata
        guard let numFrames, !animationIgnored else {
            if let breakReason { index.truncation = .truncated(format: .png, completeFrames: 1, reason: breakReason) }
            return index
        }
        if animationError == nil {
            if sawIEND {
                if let p = pending {
                    if pendingHasData { frames.append(p) } else { fail("the last fcTL has no image data") }
                }
            } else if cleanBreak, let p = pending, pendingHasData {
                // The file stops between chunks: the last frame's chunks are whole, so it
                // is kept; if its data is incomplete, decoding it reports that.
                frames.append(p)
            }
            if sawIEND {
                if animationError == nil, frames.count != Int(numFrames) {
                    fail("acTL says \(numFrames) frames, the file has \(frames.count)")
                }
            } else if frames.count > Int(numFrames) {
                fail("acTL says \(numFrames) frames, the file has more")
            }
        }
        if let first = frames.first, first.usesIDAT { frames[0].chunks = idatChunks }
        if animationError == nil, let first = frames.first, !first.usesIDAT {
            // Frame 0 shows at once: a damaged chunk there means there is no animation to show.
            for c in first.chunks where c.idatCRC(data: UnsafeRawBufferPointer(rebasing: bytes[c.range])) == nil {
                fail("fdAT CRC mismatch in frame 0")
                break
            }
        }
        if let animationError {
            index.fallbackReason = animationError
            if let breakReason { index.truncation = .truncated(format: .png, completeFrames: 1, reason: breakReason) }
            return index
        }
        guard !frames.isEmpty else {
            // Cut short before the first frame completed: the still image is all there is.
            index.fallbackReason = "the animation ends before its first frame is complete"
            index.truncation = .truncated(format: .png, completeFrames: 1, reason: breakReason ?? "no frames")
            return index
        }
        index.frames = frames
        index.format = .apng
        index.numPlays = numPlays
        if let breakReason {
            index.truncation = .truncated(format: .apng, completeFrames: frames.count, reason: breakReason)
        }
        return index
    }
}
