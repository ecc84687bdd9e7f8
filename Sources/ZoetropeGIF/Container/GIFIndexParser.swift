import Zoetrope

/// Indexes a GIF's blocks without decoding pixels, as its bytes arrive: `advance` is given
/// every byte received so far and continues where it stopped, so each byte is looked at
/// once however the file is split; `finish` says the file is complete and gives the index.
/// The whole-file path (`GIFIndex.parse`) is this parser fed the whole file at once.
///
/// Pieces of fixed size (the header, a colour table, an image descriptor) and each data
/// sub-block (at most 255 bytes) are read once all of their bytes are in; until then an
/// `advance` costs O(1). A file that breaks (an unknown block, a bad LZW code, a code size
/// above 8) stops the parser as soon as the break arrives, keeping the frames before it;
/// limits are checked as each image descriptor arrives, and a header the parser cannot use
/// throws at once.
struct GIFIndexParser {
    /// What the parser waits for next.
    enum Step {
        case header, globalTable, block, extensionLabel
        case extensionData(GIFExtensionKind)
        case descriptor(blockStart: Int)
        case localTable(GIFPendingImage)
        case codeSize(GIFPendingImage)
        case imageData(GIFPendingImage)
        /// The trailer was read: the index is complete.
        case trailer
        /// The file broke (`truncation`): the frames before the break are the index.
        case stopped
    }

    let limits: Limits
    private(set) var step = Step.header
    /// The next byte to read.
    private(set) var position = 0
    /// Bytes read so far (each byte of the file at most once): what appending costs.
    private(set) var bytesExamined = 0

    private(set) var screenSize = PixelSize(width: 0, height: 0)
    /// The screen grown to hold the first image (once its descriptor is read).
    private(set) var canvasSize = PixelSize(width: 0, height: 0)
    /// An image descriptor has been read, so the canvas is decided (unless no frame completes).
    private(set) var sawDescriptor = false
    private(set) var globalColorCount = 0
    /// The images complete so far.
    private(set) var frames: [GIFFrameRecord] = []
    private(set) var storedLoopCount: Int?
    private(set) var truncation: AnimatedImageError?
    /// Some frame has a transparent index or is disposed to background.
    private(set) var anyFrameClears = false
    /// Frames that draw colours their table lacks: (frame, table size, highest index).
    private(set) var colourProblems: [(frame: Int, colors: Int, index: Int)] = []

    /// The graphic control extension waiting for the next image.
    private var control: GIFGraphicControl?
    // The sub-block chain being read.
    private var subBlockSize: Int?
    private var subBlockOrdinal = 0
    private var chainControl: GIFGraphicControl?
    private var chainIsLoopBlock = false
    private var chainLoop: Int?
    /// The profile of the `ICCRGBG1` chain being read; nil when the chain is not one, or
    /// once it has passed `maxICCProfileBytes`.
    private var chainProfile: [UInt8]?
    /// The first complete `ICCRGBG1` application extension's profile (its sub-blocks joined).
    private(set) var iccProfile: [UInt8]?
    private var scan = GIFCodeScan()
    /// Where the current image's first data sub-block starts (its size byte).
    private var imageDataStart = 0
    /// When set, images' LZW codes are not scanned as their data is read: each image's data
    /// is recorded in `deferredScans` instead, for `GIFIndex.parse` to scan on several
    /// threads (the whole-file path of big files).
    var defersScans = false
    /// The images whose scan was deferred, in order.
    private(set) var deferredScans: [GIFDeferredScan] = []

    init(limits: Limits) {
        self.limits = limits
    }

    /// While the first image's data is arriving: its record and where its complete
    /// sub-blocks end (the image drawn from the bytes before that, ended there, is what
    /// has arrived of it). Nil otherwise.
    var partialFirstImage: (record: GIFFrameRecord, dataEnd: Int)? {
        guard frames.isEmpty, case .imageData(let image) = step, !image.isEmpty else { return nil }
        return (image.record, position - (subBlockSize == nil ? 0 : 1))
    }

    /// No more frames will be added: the trailer was read or the file broke.
    var isComplete: Bool {
        switch step {
        case .trailer, .stopped: true
        default: false
        }
    }

    /// Reads on from `position` through `bytes` (every byte of the file received so far;
    /// earlier calls saw a prefix of it) and stops where a piece is not complete yet.
    mutating func advance(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        while try step(bytes) {}
    }

    /// One step: returns false when it needs more bytes or the index is complete.
    private mutating func step(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) -> Bool {
        let available = bytes.count - position
        switch step {
        case .header:
            guard available >= 13 else { return false }
            try readHeader(bytes)
        case .globalTable:
            guard available >= 3 * globalColorCount else { return false }
            position += 3 * globalColorCount
            step = .block
        case .block:
            guard available >= 1 else { return false }
            let blockStart = position
            let introducer = read(bytes)
            switch introducer {
            case 0x3B: step = .trailer
            case 0x21: step = .extensionLabel
            case 0x2C: step = .descriptor(blockStart: blockStart)
            default:
                stop(
                    .invalidData(
                        format: .gif, reason: "unknown block 0x\(String(introducer, radix: 16)) at offset \(blockStart) after \(frames.count) frames")
                )
            }
        case .extensionLabel:
            guard available >= 1 else { return false }
            let kind: GIFExtensionKind =
                switch read(bytes) {
                case 0xF9: .graphicControl
                case 0xFF: .application
                // Comments, plain text (not rendered, and it does not take the pending graphic
                // control, as in browsers), unknown extensions.
                default: .other
                }
            beginChain()
            step = .extensionData(kind)
        case .extensionData(let kind):
            return readSubBlock(bytes) { parser, block in
                parser.extensionBlock(block, kind: kind)
            } chainEnded: { parser in
                if kind == .graphicControl, let gce = parser.chainControl { parser.control = gce }
                if parser.iccProfile == nil, let profile = parser.chainProfile, !profile.isEmpty { parser.iccProfile = profile }
                parser.step = .block
            }
        case .descriptor(let blockStart):
            guard available >= 9 else { return false }
            try readDescriptor(bytes, blockStart: blockStart)
        case .localTable(let image):
            guard available >= 3 * image.localColorCount else { return false }
            position += 3 * image.localColorCount
            step = .codeSize(image)
        case .codeSize(let image):
            guard available >= 1 else { return false }
            let codeSize = read(bytes)
            guard codeSize <= 8 else {
                stop(
                    .invalidData(
                        format: .gif, reason: "image \(image.ordinal) at offset \(image.blockStart) has LZW code size \(codeSize) (at most 8)"))
                return false
            }
            let pixelCount = image.isEmpty ? 0 : image.record.rect.width * image.record.rect.height
            if defersScans {
                deferredScans.append(
                    GIFDeferredScan(
                        image: image, dataStart: position, minimumCodeSize: Int(codeSize),
                        pixelCount: pixelCount))
                scan.begin(minimumCodeSize: 0, pixelCount: 0, transparentIndex: nil, colorCount: 0)
            } else {
                scan.begin(
                    minimumCodeSize: Int(codeSize), pixelCount: pixelCount,
                    transparentIndex: image.record.transparentIndex, colorCount: image.colorCount)
            }
            imageDataStart = position
            beginChain()
            step = .imageData(image)
        case .imageData(let image):
            if defersScans, subBlockSize == nil {
                // Nothing reads the data now (its scan runs later): skip the sub-blocks in
                // one tight loop, up to the terminator or a sub-block not all in yet.
                // Encoders write full 255-byte sub-blocks: eight lengths are read at once
                // where a run of full ones puts them, loads that do not wait on each other
                // (one at a time, each length's cache miss waits for the one before).
                var p = position
                let run = 8 * 256
                while p < bytes.count {
                    if bytes.count - p >= run {
                        var all: UInt8 = 0xFF
                        for k in 0..<8 { all &= bytes[p + k * 256] }
                        if all == 0xFF {
                            p += run
                            continue
                        }
                    }
                    let size = Int(bytes[p])
                    guard size > 0, bytes.count - p > size else { break }
                    p += 1 + size
                }
                bytesExamined += p - position
                position = p
            }
            return readSubBlock(bytes) { parser, block in
                parser.bytesExamined += block.count
                parser.scan.feed(block)
                if parser.scan.needsExactScan {
                    // Every sub-block of the image so far is still in `bytes`.
                    parser.scan.rescanExactly(bytes, dataStart: parser.imageDataStart, end: parser.position)
                }
                if let bad = parser.scan.result.badCode {
                    // giflib would make up pixels; Chromium drops the frame and what follows.
                    parser.stop(
                        .invalidData(
                            format: .gif,
                            reason:
                                "frame \(image.ordinal) at offset \(image.blockStart) has LZW code \(bad.code) past the next free table entry \(bad.nextFree); the animation ends before it"
                        ))
                }
            } chainEnded: { parser in
                parser.imageEnded(image)
            }
        case .trailer, .stopped:
            return false
        }
        return true
    }

    // MARK: - Pieces

    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        bytesExamined += 13
        let signature = Array(bytes[0..<6])
        guard signature == Array("GIF87a".utf8) || signature == Array("GIF89a".utf8) else {
            throw .invalidData(format: .gif, reason: "no GIF87a/GIF89a signature")
        }
        let screenWidth = Int(bytes[6]) | Int(bytes[7]) << 8, screenHeight = Int(bytes[8]) | Int(bytes[9]) << 8
        let screenFlags = bytes[10]
        // Bytes 11 and 12: the background colour index (ignored by the browser rules), aspect ratio.
        position = 13
        try limits.checkSize(width: screenWidth, height: screenHeight, format: .gif)
        globalColorCount = screenFlags & 0x80 != 0 ? 1 << (Int(screenFlags & 7) + 1) : 0
        screenSize = PixelSize(width: screenWidth, height: screenHeight)
        canvasSize = screenSize
        step = .globalTable
    }

    private mutating func readDescriptor(_ bytes: UnsafeRawBufferPointer, blockStart: Int) throws(AnimatedImageError) {
        let descriptorOffset = position
        func word(_ o: Int) -> Int { Int(bytes[descriptorOffset + o]) | Int(bytes[descriptorOffset + o + 1]) << 8 }
        let x = word(0), y = word(2), w = word(4), h = word(6), flags = bytes[descriptorOffset + 8]
        position += 9
        bytesExamined += 9
        try limits.checkFrameCount(frames.count + 1, format: .gif)
        // Total work: the canvas is known once the first frame is (it grows to hold it).
        if frames.isEmpty, w > 0, h > 0 {
            let (right, o1) = x.addingReportingOverflow(w), (bottom, o2) = y.addingReportingOverflow(h)
            canvasSize = PixelSize(
                width: o1 ? .max : max(screenSize.width, right),
                height: o2 ? .max : max(screenSize.height, bottom))
            try limits.checkSize(width: canvasSize.width, height: canvasSize.height, format: .gif)
        }
        sawDescriptor = true
        try limits.checkPixelsPerPlay(frameCount: frames.count + 1, canvas: canvasSize, format: .gif)
        let gce = control ?? GIFGraphicControl()
        control = nil
        let record = GIFFrameRecord(
            descriptorOffset: descriptorOffset,
            rect: PixelRect(x: x, y: y, width: w, height: h),
            interlaced: flags & 0x40 != 0,
            delayCentiseconds: gce.delayCentiseconds,
            rawDisposal: gce.disposal,
            transparentIndex: gce.transparentIndex)
        let localColorCount = flags & 0x80 != 0 ? 1 << (Int(flags & 7) + 1) : 0
        let image = GIFPendingImage(
            record: record, blockStart: blockStart, ordinal: frames.count,
            localColorCount: localColorCount,
            colorCount: localColorCount > 0 ? localColorCount : globalColorCount)
        // An empty image has no pixels to decode: it is a complete (transparent) frame as
        // soon as its descriptor is read, whatever follows.
        if image.isEmpty { addFrame(record) }
        step = .localTable(image)
    }

    private mutating func extensionBlock(_ block: UnsafeRawBufferPointer, kind: GIFExtensionKind) {
        switch kind {
        case .graphicControl:
            guard subBlockOrdinal == 0, block.count >= 4 else { return }
            bytesExamined += 4
            let flags = block[0]
            chainControl = GIFGraphicControl(
                delayCentiseconds: Int(block[1]) | Int(block[2]) << 8,
                disposal: Int(flags >> 2) & 7,
                transparentIndex: flags & 1 != 0 ? Int(block[3]) : nil)
        case .application:
            if subBlockOrdinal == 0 {
                bytesExamined += block.count
                let id = Array(block)
                chainIsLoopBlock = id == Array("NETSCAPE2.0".utf8) || id == Array("ANIMEXTS1.0".utf8)
                if iccProfile == nil, id == GIFIndexParser.iccIdentifier { chainProfile = [] }
            } else if var profile = chainProfile {
                // A profile past the bound is dropped whole, never kept cut.
                chainProfile = nil
                guard block.count <= min(GIFIndexParser.maxICCProfileBytes, limits.maxAllocationBytes) - profile.count else { return }
                bytesExamined += block.count
                profile += block
                chainProfile = profile
            } else if chainIsLoopBlock, chainLoop == nil, block.count >= 3, block[0] == 1 {
                bytesExamined += 3
                let loop = Int(block[1]) | Int(block[2]) << 8
                chainLoop = loop
                // The last loop block counts, as in Chromium and Firefox.
                storedLoopCount = loop
            }
        case .other:
            break
        }
    }

    private mutating func imageEnded(_ image: GIFPendingImage) {
        if !defersScans, scan.result.highestIndex >= image.colorCount {
            colourProblems.append((image.ordinal, image.colorCount, scan.result.highestIndex))
        }
        if !image.isEmpty { addFrame(image.record) }
        step = .block
    }

    /// Records the deferred scans' colour findings, in image order (what `imageEnded`
    /// records when it scans).
    mutating func applyDeferredScans(_ results: [GIFCodeScan.Result]) {
        for (deferred, result) in zip(deferredScans, results) where result.highestIndex >= deferred.image.colorCount {
            colourProblems.append((deferred.image.ordinal, deferred.image.colorCount, result.highestIndex))
        }
    }

    private mutating func addFrame(_ record: GIFFrameRecord) {
        frames.append(record)
        if record.transparentIndex != nil || record.disposal == .background { anyFrameClears = true }
    }

    // MARK: - Sub-block chains

    private mutating func beginChain() {
        subBlockSize = nil
        subBlockOrdinal = 0
        chainControl = nil
        chainIsLoopBlock = false
        chainLoop = nil
        chainProfile = nil
    }

    /// The application identifier and authentication code of an ICC profile extension
    /// (the ICC's "ICCRGBG1" + "012").
    static let iccIdentifier = Array("ICCRGBG1012".utf8)
    /// The largest profile read (a larger one is ignored).
    static let maxICCProfileBytes = 16 << 20

    /// Reads the chain's sub-blocks whose bytes are all in, handing each to `body`, and at
    /// the terminator calls `chainEnded` and returns true. Returns false when it needs more
    /// bytes (or `body` stopped the parser).
    private mutating func readSubBlock(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (inout GIFIndexParser, UnsafeRawBufferPointer) -> Void,
        chainEnded: (inout GIFIndexParser) -> Void
    ) -> Bool {
        while true {
            if subBlockSize == nil {
                guard position < bytes.count else { return false }
                let size = Int(read(bytes))
                if size == 0 {
                    chainEnded(&self)
                    return true
                }
                subBlockSize = size
            }
            let size = subBlockSize!
            guard bytes.count - position >= size else { return false }
            let block = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + size)])
            position += size
            subBlockSize = nil
            body(&self, block)
            subBlockOrdinal += 1
            if case .stopped = step { return false }
        }
    }

    @inline(__always)
    private mutating func read(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        defer {
            position += 1
            bytesExamined += 1
        }
        return bytes[position]
    }

    private mutating func stop(_ error: AnimatedImageError) {
        truncation = error
        step = .stopped
    }
}
