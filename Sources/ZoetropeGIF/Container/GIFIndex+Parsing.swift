import Zoetrope

extension GIFIndex {
    /// The graphic control extension waiting for the next image; the last one before an image wins.
    private struct GraphicControl {
        var delayCentiseconds = 0
        var disposal = 0
        var transparentIndex: Int?
    }

    /// Walks the blocks of `bytes` without decoding pixels. Throws when the header is
    /// unusable or a limit is passed; a file that breaks after some complete frames keeps
    /// them and records what went wrong in `truncation`.
    static func parse(_ bytes: UnsafeRawBufferPointer, limits: Limits) throws(AnimatedImageError) -> GIFIndex {
        guard bytes.count >= 13 else {
            throw .insufficientData(format: .gif, needed: 13, available: bytes.count)
        }
        let signature = Array(bytes[0..<6])
        guard signature == Array("GIF87a".utf8) || signature == Array("GIF89a".utf8) else {
            throw .invalidData(format: .gif, reason: "no GIF87a/GIF89a signature")
        }
        var cursor = GIFByteCursor(bytes, position: 6)
        let screenWidth = cursor.readUInt16()!, screenHeight = cursor.readUInt16()!
        let screenFlags = cursor.readByte()!
        _ = cursor.skip(2)  // background colour index (ignored by the browser rules), aspect ratio
        try limits.checkSize(width: screenWidth, height: screenHeight, format: .gif)
        let globalColorCount = screenFlags & 0x80 != 0 ? 1 << (Int(screenFlags & 7) + 1) : 0
        if globalColorCount > 0 {
            guard cursor.skip(3 * globalColorCount) else {
                throw .truncated(format: .gif, completeFrames: 0, reason: "the file ends inside the global colour table")
            }
        }

        var index = GIFIndex(screenSize: PixelSize(width: screenWidth, height: screenHeight),
                             canvasSize: PixelSize(width: screenWidth, height: screenHeight),
                             frames: [], storedLoopCount: nil, truncation: nil)
        var control: GraphicControl?
        var scan = GIFCodeScan()
        var colourProblems: [(frame: Int, colors: Int, index: Int)] = []
        func stop(_ reason: String) -> AnimatedImageError {
            .truncated(format: .gif, completeFrames: index.frames.count, reason: reason)
        }

        scan: while true {
            let blockStart = cursor.position
            guard let introducer = cursor.readByte() else {
                index.truncation = stop("the file ends without a trailer")
                break
            }
            switch introducer {
            case 0x3B:
                break scan
            case 0x21:
                guard let label = cursor.readByte() else {
                    index.truncation = stop("the file ends inside an extension")
                    break scan
                }
                var complete = true
                switch label {
                case 0xF9:
                    var gce: GraphicControl?
                    complete = cursor.readSubBlocks { block, ordinal in
                        guard ordinal == 0, block.count >= 4 else { return }
                        let flags = block[0]
                        gce = GraphicControl(delayCentiseconds: Int(block[1]) | Int(block[2]) << 8,
                                             disposal: Int(flags >> 2) & 7,
                                             transparentIndex: flags & 1 != 0 ? Int(block[3]) : nil)
                    }
                    if let gce { control = gce }
                case 0xFF:
                    var isLoopBlock = false
                    var loop: Int?
                    complete = cursor.readSubBlocks { block, ordinal in
                        if ordinal == 0 {
                            let id = Array(block)
                            isLoopBlock = id == Array("NETSCAPE2.0".utf8) || id == Array("ANIMEXTS1.0".utf8)
                        } else if isLoopBlock, loop == nil, block.count >= 3, block[0] == 1 {
                            loop = Int(block[1]) | Int(block[2]) << 8
                        }
                    }
                    // The last loop block counts, as in Chromium and Firefox.
                    if let loop { index.storedLoopCount = loop }
                default:
                    // Comments, plain text (not rendered, and it does not take the pending
                    // graphic control, as in browsers), unknown extensions.
                    complete = cursor.skipSubBlocks()
                }
                if !complete {
                    index.truncation = stop("the file ends inside an extension")
                    break scan
                }
            case 0x2C:
                let descriptorOffset = cursor.position
                guard let x = cursor.readUInt16(), let y = cursor.readUInt16(),
                      let w = cursor.readUInt16(), let h = cursor.readUInt16(), let flags = cursor.readByte() else {
                    index.truncation = stop("the file ends inside an image descriptor")
                    break scan
                }
                try limits.checkFrameCount(index.frames.count + 1, format: .gif)
                // Total work: the canvas is known once the first frame is (it grows to hold it).
                if index.frames.isEmpty, w > 0, h > 0 {
                    let (right, o1) = x.addingReportingOverflow(w), (bottom, o2) = y.addingReportingOverflow(h)
                    index.canvasSize = PixelSize(width: o1 ? .max : max(screenWidth, right),
                                                 height: o2 ? .max : max(screenHeight, bottom))
                    try limits.checkSize(width: index.canvasSize.width, height: index.canvasSize.height, format: .gif)
                }
                try limits.checkPixelsPerPlay(frameCount: index.frames.count + 1, canvas: index.canvasSize, format: .gif)
                let gce = control ?? GraphicControl()
                control = nil
                let record = GIFFrameRecord(descriptorOffset: descriptorOffset,
                                            rect: PixelRect(x: x, y: y, width: w, height: h),
                                            interlaced: flags & 0x40 != 0,
                                            delayCentiseconds: gce.delayCentiseconds,
                                            rawDisposal: gce.disposal,
                                            transparentIndex: gce.transparentIndex)
                // An empty image has no pixels to decode: it is a complete (transparent) frame
                // as soon as its descriptor is read, whatever follows.
                let empty = w == 0 || h == 0
                if empty { index.frames.append(record) }
                let localColorCount = flags & 0x80 != 0 ? 1 << (Int(flags & 7) + 1) : 0
                if localColorCount > 0, !cursor.skip(3 * localColorCount) {
                    index.truncation = stop("the file ends inside a local colour table")
                    break scan
                }
                let colorCount = localColorCount > 0 ? localColorCount : globalColorCount
                guard let codeSize = cursor.readByte() else {
                    index.truncation = stop("the file ends before the image data")
                    break scan
                }
                guard codeSize <= 8 else {
                    index.truncation = .invalidData(
                        format: .gif, reason: "image \(index.frames.count - (empty ? 1 : 0)) at offset \(blockStart) has LZW code size \(codeSize) (at most 8)")
                    break scan
                }
                let ordinal = index.frames.count - (empty ? 1 : 0)
                let found = scan.scan(&cursor, minimumCodeSize: Int(codeSize), pixelCount: empty ? 0 : w * h,
                                      transparentIndex: gce.transparentIndex)
                if let bad = found.badCode {
                    // giflib would make up pixels; Chromium drops the frame and what follows.
                    index.truncation = .invalidData(
                        format: .gif, reason: "frame \(ordinal) at offset \(blockStart) has LZW code \(bad.code) past the next free table entry \(bad.nextFree); the animation ends before it")
                    break scan
                }
                guard found.complete else {
                    index.truncation = stop("the file ends inside the image data of frame \(ordinal)")
                    break scan
                }
                if found.highestIndex >= colorCount {
                    colourProblems.append((ordinal, colorCount, found.highestIndex))
                }
                if !empty { index.frames.append(record) }
            default:
                index.truncation = .invalidData(
                    format: .gif, reason: "unknown block 0x\(String(introducer, radix: 16)) at offset \(blockStart) after \(index.frames.count) frames")
                break scan
            }
        }

        // The canvas grows to hold the first frame (set above); later frames are clipped.
        if index.frames.first?.rect.isEmpty ?? true {
            index.canvasSize = index.screenSize
        }
        if index.canvasSize.width == 0 || index.canvasSize.height == 0 {
            throw .invalidData(format: .gif, reason: "the logical screen is \(screenWidth)×\(screenHeight) and no image gives it a size")
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
        index.warnings = colourWarnings(colourProblems.filter { $0.frame < index.frames.count })
        return index
    }

    /// One line for the frames that draw colours their table lacks (Chromium draws them opaque black).
    private static func colourWarnings(_ problems: [(frame: Int, colors: Int, index: Int)]) -> [String] {
        guard let first = problems.first else { return [] }
        let what = first.colors == 0
            ? "frame \(first.frame) has no colour table (neither local nor global)"
            : "frame \(first.frame) uses colour index \(first.index) outside its \(first.colors)-entry colour table"
        let more = problems.count > 1 ? " (and \(problems.count - 1) more frame\(problems.count == 2 ? "" : "s") like it)" : ""
        return ["\(what)\(more): indices without a colour are drawn opaque black, as Chromium does"]
    }
}
