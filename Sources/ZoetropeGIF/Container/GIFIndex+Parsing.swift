import Zoetrope

extension GIFIndex {
    /// Walks the blocks of `bytes` (a whole file) without decoding pixels: the incremental
    /// parser fed everything at once. Throws when the header is unusable or a limit is
    /// passed; a file that breaks after some complete frames keeps them and records what
    /// went wrong in `truncation`.
    static func parse(_ bytes: UnsafeRawBufferPointer, limits: Limits) throws(AnimatedImageError) -> GIFIndex {
        var parser = GIFIndexParser(limits: limits)
        try parser.advance(bytes)
        return try parser.finish(receivedByteCount: bytes.count)
    }
}

extension GIFIndexParser {
    /// The index, with the file ending after `receivedByteCount` bytes (all of them given
    /// to `advance`): a piece cut short becomes the truncation, and the rules that need the
    /// whole file apply (the canvas, one transparent frame for a file without images).
    /// Throws when the file cannot be decoded at all.
    func finish(receivedByteCount count: Int) throws(AnimatedImageError) -> GIFIndex {
        var index = GIFIndex(screenSize: screenSize, canvasSize: canvasSize, frames: frames,
                             storedLoopCount: storedLoopCount, truncation: truncation)
        func stop(_ reason: String) -> AnimatedImageError {
            .truncated(format: .gif, completeFrames: frames.count, reason: reason)
        }
        switch step {
        case .header: throw .insufficientData(format: .gif, needed: 13, available: count)
        case .globalTable: throw .truncated(format: .gif, completeFrames: 0, reason: "the file ends inside the global colour table")
        case .block: index.truncation = stop("the file ends without a trailer")
        case .extensionLabel, .extensionData: index.truncation = stop("the file ends inside an extension")
        case .descriptor: index.truncation = stop("the file ends inside an image descriptor")
        case .localTable: index.truncation = stop("the file ends inside a local colour table")
        case .codeSize: index.truncation = stop("the file ends before the image data")
        case .imageData(let image): index.truncation = stop("the file ends inside the image data of frame \(image.ordinal)")
        case .trailer, .stopped: break
        }

        // The canvas grows to hold the first frame (set as its descriptor was read); later
        // frames are clipped.
        if index.frames.first?.rect.isEmpty ?? true {
            index.canvasSize = index.screenSize
        }
        if index.canvasSize.width == 0 || index.canvasSize.height == 0 {
            throw .invalidData(format: .gif, reason: "the logical screen is \(screenSize.width)×\(screenSize.height) and no image gives it a size")
        }
        try limits.checkSize(width: index.canvasSize.width, height: index.canvasSize.height, format: .gif)
        if index.frames.isEmpty {
            if let truncation = index.truncation { throw truncation }
            // A GIF with a screen but no image shows one transparent frame.
            index.frames.append(GIFFrameRecord(descriptorOffset: 0, rect: PixelRect(x: 0, y: 0, width: 0, height: 0),
                                               interlaced: false, delayCentiseconds: 0, rawDisposal: 0,
                                               transparentIndex: nil))
        }
        try limits.checkPixelsPerPlay(frameCount: index.frames.count, canvas: index.canvasSize, format: .gif)
        index.warnings = warnings
        return index
    }

    /// The canvas as far as the file has said: nil before the first image descriptor; the
    /// screen grown to hold the first image after it (the screen when that image is empty).
    var currentCanvas: PixelSize? {
        guard sawDescriptor else { return nil }
        return frames.first?.rect.isEmpty == true ? screenSize : canvasSize
    }

    /// One line for the frames that draw colours their table lacks (Chromium draws them opaque black).
    var warnings: [String] {
        // Problems are recorded as their frame completes, so every one is about a frame of the index.
        let problems = colourProblems
        guard let first = problems.first else { return [] }
        let what = first.colors == 0
            ? "frame \(first.frame) has no colour table (neither local nor global)"
            : "frame \(first.frame) uses colour index \(first.index) outside its \(first.colors)-entry colour table"
        let more = problems.count > 1 ? " (and \(problems.count - 1) more frame\(problems.count == 2 ? "" : "s") like it)" : ""
        return ["\(what)\(more): indices without a colour are drawn opaque black, as Chromium does"]
    }
}
