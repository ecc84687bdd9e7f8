import Zoetrope
import ZoetropeColor

/// The receiving side of a `JPEGIncrementalSource`, behind its lock: the bytes, libjpeg-turbo
/// reading them in buffered-image mode, and the snapshot.
///
/// The header is read by libjpeg-turbo and walked by `JPEGMarkerScanner` (the bytes up to the
/// first scan's data), so the size, the limits and the first scan's header are checked as the
/// whole-file source checks them, and the coefficients are allocated only once as many bytes
/// of scan data have arrived as the whole-file bound asks of the file
/// (`JPEGHeader.minimumScanByteCount`) and the allocation budget holds. A progressive file's
/// picture is drawn each time a scan completes and the next scan's header is in (unless that
/// next scan is complete in the same bytes too). A sequential file has nothing to show before
/// its end: libjpeg-turbo reads only its header, and at the end-of-image marker the file is
/// decoded as the whole-file source decodes it (no coefficients held). At the end-of-image marker (or
/// `finish()`), the whole file is walked again: the info and errors are the whole-file
/// source's, and the last picture is the whole-file frame.
struct JPEGIncrementalIngest: IncrementalIngesting, Sendable {
    static let format = ImageFormat.jpeg
    let options: DecodingOptions
    var bytes = IncrementalByteBuffer()
    var snapshot = IncrementalSnapshot()
    var final: AnimationInfo?
    var failure: AnimatedImageError?
    /// The decompressor; nil once the last picture is drawn (its coefficients freed).
    private var stream: JPEGScanStream?
    /// What the walk of the bytes before the first scan's data says.
    private var header: JPEGHeader?
    /// Where the first scan's data starts.
    private var headerEnd = 0
    private var started = false
    /// A sequential file: libjpeg-turbo read its header only; the end is looked for.
    private var sequential = false
    /// Where the search for a sequential file's end stopped.
    private var searchedTo = 0
    /// The coefficient bytes libjpeg-turbo holds (counted while the decompressor lives).
    private(set) var heldCoefficients = 0
    private var colorTransform: (any ColorTransform)?
    /// The latest picture, shared with the decoding side.
    let pictures: Locked<JPEGScanPicture?>
    /// libjpeg-turbo's first warning, which decoding went on past.
    private(set) var decodeWarning: String?

    init(options: DecodingOptions, pictures: Locked<JPEGScanPicture?>) {
        self.options = options
        self.pictures = pictures
    }

    mutating func advanceParser() throws(AnimatedImageError) -> Bool {
        guard final == nil else { return true }
        let prefix = bytes.prefix
        if sequential { return prefix.withBytes { endArrived(in: $0) } }
        if stream == nil, !started { stream = try JPEGScanStream() }
        guard let stream else { return false }
        do throws(AnimatedImageError) {
            if header == nil {
                guard try prefix.withBytes({ file throws(AnimatedImageError) in try stream.readHeader(file) }) == .header
                else { return false }
                try readHeader(stream, prefix)
            }
            guard let header else { return false }
            if !header.isProgressive {
                // Nothing to show before the end: the whole-file decode then, no coefficients.
                sequential = true
                self.stream = nil
                return prefix.withBytes { endArrived(in: $0) }
            }
            if !started {
                // The whole-file bound on the scan data, before the coefficients are allocated.
                guard bytes.count - headerEnd >= header.minimumScanByteCount else { return false }
                try start(stream, header)
            }
            while true {
                let step = try prefix.withBytes { file throws(AnimatedImageError) in try stream.consume(file) }
                noteWarning(stream)
                switch step {
                case .suspended, .header: return false
                case .end: return true
                case .scan:
                    let later = prefix.withBytes { file in Self.scanDataEnds(in: file, from: stream.consumed) }
                    if !later { try draw(stream, header, prefix) }
                }
            }
        } catch {
            throw prefix.withBytes { Self.wholeFileError(for: error, file: $0) }
        }
    }

    /// The decompressor, made now if none was (nil once it was freed).
    private mutating func openedStream() throws(AnimatedImageError) -> JPEGScanStream? {
        if stream == nil, !started { stream = try JPEGScanStream() }
        return stream
    }

    /// Whether a sequential file's end-of-image marker has arrived: a `FF D9` past where the
    /// search stopped, confirmed by the marker walk (a segment after the scan may hold those
    /// bytes; entropy-coded data cannot).
    private mutating func endArrived(in file: UnsafeRawBufferPointer) -> Bool {
        var i = max(headerEnd, searchedTo - 1)
        searchedTo = file.count
        while i + 1 < file.count {
            if file[i] == 0xFF, file[i + 1] == 0xD9 {
                do {
                    _ = try JPEGMarkerScanner.scan(file)
                    return true
                } catch {
                    if case .truncated = error {} else { return true }
                }
            }
            i += 1
        }
        return false
    }

    /// A sequential file's one picture, decoded as the whole-file source decodes it.
    private mutating func drawWhole(_ whole: JPEGHeader, _ prefix: IncrementalBytePrefix) throws(AnimatedImageError) {
        var budget = JPEGFrameSource.budget(whole, options: options)
        budget.reserve(whole.storedSize.rgbaByteCount)
        budget.reserve(bytes.capacity)
        try budget.check()
        let stored = whole.storedSize, cmyk = whole.components == 4
        var raster = PixelBuffer(width: stored.width, height: stored.height)
        let stride = raster.bytesPerRow
        let decoded = prefix.withBytes { file in
            raster.bytes.withUnsafeMutableBytes { pixels in
                Result { () throws(AnimatedImageError) -> String? in
                    let warning = try TurboJPEGDecoder.decode(file, size: stored, cmyk: cmyk, into: pixels.baseAddress!, bytesPerRow: stride)
                    if cmyk { JPEGColor.convertCMYK(pixels, inverted: whole.hasAdobeMarker) }
                    return warning
                }
            }
        }
        if let warning = try decoded.get(), decodeWarning == nil { decodeWarning = warning }
        let picture = JPEGScanPicture(raster: raster, orientation: whole.orientation, colorTransform: colorTransform)
        pictures.withLock { $0 = picture }
    }

    /// Checks the allocation budget, then has libjpeg-turbo allocate its coefficients, allowed
    /// what the limit leaves beside the session's own pictures and bytes.
    private mutating func start(_ stream: JPEGScanStream, _ header: JPEGHeader) throws(AnimatedImageError) {
        var budget = Self.budget(header, options: options)
        budget.reserve(bytes.capacity)
        try budget.check()
        let coefficients = Self.coefficientByteCount(header) ?? 0  // not nil: the budget held
        try stream.start(maxMemory: max(1, options.limits.maxAllocationBytes - (budget.total - coefficients)))
        started = true
        heldCoefficients = coefficients
    }

    /// Checks the header libjpeg-turbo read against the walk of the same bytes, and the limits.
    private mutating func readHeader(_ stream: JPEGScanStream, _ prefix: IncrementalBytePrefix) throws(AnimatedImageError) {
        let end = stream.consumed
        let header = try prefix.withBytes { file throws(AnimatedImageError) -> JPEGHeader in
            // The bytes through the first scan's header, closed by an end-of-image marker.
            var head = [UInt8](UnsafeRawBufferPointer(rebasing: file[..<min(end, file.count)]))
            head += [0xFF, 0xD9]
            return try Self.walk(head)
        }
        guard header.storedSize == stream.size, header.components == stream.components,
            header.isProgressive == stream.isProgressive, (header.components == 4) == stream.isCMYK
        else {
            throw .invalidData(format: .jpeg, reason: "libjpeg-turbo reads a \(stream.size) frame where the header says \(header.storedSize)")
        }
        let shown = header.displayedSize
        try options.limits.checkSize(width: shown.width, height: shown.height, format: .jpeg)
        try options.limits.checkPixelsPerPlay(frameCount: 1, canvas: shown, format: .jpeg)
        self.header = header
        headerEnd = end
        let color = ColorInfo(iccProfile: header.iccProfile.map(ICCProfile.init(data:)))
        let warning: String?
        (colorTransform, warning) = ColorManagement.prepare(color, options: options)
        snapshot.format = .jpeg
        snapshot.canvasSize = shown
        snapshot.loopCount = .once
        snapshot.hasAlpha = false
        snapshot.color = color
        snapshot.warnings = header.warnings + (warning.map { [$0] } ?? [])
    }

    private static func walk(_ bytes: [UInt8]) throws(AnimatedImageError) -> JPEGHeader {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(AnimatedImageError) in try JPEGMarkerScanner.scan(raw) } }
        return try result.get()
    }

    /// Draws the scans complete so far as the new picture of frame 0.
    private mutating func draw(_ stream: JPEGScanStream, _ header: JPEGHeader, _ prefix: IncrementalBytePrefix) throws(AnimatedImageError) {
        let stored = header.storedSize
        var raster = PixelBuffer(width: stored.width, height: stored.height)
        let stride = raster.bytesPerRow
        let drawn = prefix.withBytes { file in
            raster.bytes.withUnsafeMutableBytes { pixels in
                Result { () throws(AnimatedImageError) in
                    try stream.render(file, into: pixels.baseAddress!, bytesPerRow: stride)
                    if header.components == 4 { JPEGColor.convertCMYK(pixels, inverted: header.hasAdobeMarker) }
                }
            }
        }
        try drawn.get()
        noteWarning(stream)
        let picture = JPEGScanPicture(raster: raster, orientation: header.orientation, colorTransform: colorTransform)
        pictures.withLock { $0 = picture }
        // A picture shown before is withdrawn: frame 0 is the new one.
        if !snapshot.frameDurations.isEmpty { snapshot.revision += 1 }
        snapshot.frameDurations = [.zero]
    }

    private mutating func noteWarning(_ stream: JPEGScanStream) {
        if decodeWarning == nil { decodeWarning = stream.warning }
    }

    mutating func update() throws(AnimatedImageError) {}

    /// The whole file received: walked and checked as the whole-file source opens it, then
    /// its last picture drawn and the decompressor freed.
    mutating func complete() throws(AnimatedImageError) {
        guard final == nil else { return }
        let prefix = bytes.prefix
        let whole = try prefix.withBytes { file throws(AnimatedImageError) in try JPEGMarkerScanner.scan(file) }
        let shown = whole.displayedSize
        try options.limits.checkSize(width: shown.width, height: shown.height, format: .jpeg)
        try options.limits.checkPixelsPerPlay(frameCount: 1, canvas: shown, format: .jpeg)
        try whole.checkScanData()
        try JPEGFrameSource.budget(whole, options: options).check()
        // The whole-file source's info for these bytes.
        var info = AnimationInfo(
            format: .jpeg, canvasSize: shown, frameDurations: [.zero], loopCount: .once,
            storedLoopValue: nil, hasAlpha: false, warnings: whole.warnings,
            color: ColorInfo(iccProfile: whole.iccProfile.map(ICCProfile.init(data:))),
            metadata: EmbeddedMetadata(exif: whole.exif.map(ExifOrientationReader.upright), xmp: whole.xmp))
        colorTransform = ColorManagement.prepare(&info, options: options)
        if !whole.isProgressive {
            stream = nil
            try drawWhole(whole, prefix)
        } else if let stream = try openedStream() {
            // The walk found the end; libjpeg-turbo reads to it (or to where the bytes stop).
            stream.endData()
            do throws(AnimatedImageError) {
                if header == nil {
                    _ = try prefix.withBytes { file throws(AnimatedImageError) in try stream.readHeader(file) }
                    try readHeader(stream, prefix)
                }
                if !started, let header { try start(stream, header) }
                // The data has ended: each step reaches a scan or the end, never suspends.
                var steps = 0
                while try prefix.withBytes({ file throws(AnimatedImageError) in try stream.consume(file) }) != .end {
                    steps += 1
                    guard steps <= JPEGScanStream.maxScans + 1 else {
                        throw .invalidData(format: .jpeg, reason: "libjpeg-turbo did not reach the end of the image")
                    }
                }
                noteWarning(stream)
                guard let header, header.storedSize == whole.storedSize else {
                    throw .invalidData(format: .jpeg, reason: "the frame header changed")
                }
                self.header = whole
                try draw(stream, whole, prefix)
            } catch {
                self.stream = nil
                heldCoefficients = 0
                throw error
            }
            self.stream = nil
            heldCoefficients = 0
        }
        final = info
        let revision = snapshot.revision
        snapshot = IncrementalSnapshot(
            state: .complete, receivedByteCount: bytes.count, format: .jpeg, canvasSize: info.canvasSize,
            frameDurations: info.frameDurations, loopCount: info.loopCount, storedLoopValue: nil,
            hasAlpha: false, warnings: info.warnings, revision: revision)
        snapshot.color = info.color
        snapshot.metadata = info.metadata
    }

    /// What a progressive session holds at most beside the file's bytes: the latest picture
    /// and the one being drawn, what a whole-file decode holds to hand it out
    /// (`JPEGFrameSource.budget` without its coefficients), and libjpeg-turbo's whole-image
    /// coefficients, which buffered-image mode keeps (two bytes a sample, every component at full
    /// resolution at most, in MCUs of up to 32 pixels).
    static func budget(_ header: JPEGHeader, options: DecodingOptions) -> AllocationBudget {
        var budget = AllocationBudget(limits: options.limits, format: .jpeg)
        let shown = header.displayedSize
        let direct = header.orientation == .up && options.outputSize(forCanvas: shown) == shown && header.components != 4
        budget.reserve(direct ? 3 : 4, bytesEach: header.storedSize.rgbaByteCount)
        budget.reserve(coefficientByteCount(header))
        return budget
    }

    /// libjpeg-turbo's whole-image coefficients at most (see `budget`); nil when the count
    /// does not fit an `Int`.
    static func coefficientByteCount(_ header: JPEGHeader) -> Int? {
        let padded = PixelSize(width: (header.storedSize.width + 31) / 32 * 32, height: (header.storedSize.height + 31) / 32 * 32)
        guard let pixels = padded.pixelCount else { return nil }
        let (bytes, overflow) = pixels.multipliedReportingOverflow(by: header.components * 2)
        return overflow ? nil : bytes
    }

    /// Whether the scan data starting at `offset` (just after a scan's header) ends in `file`:
    /// then the scan is complete in the bytes received, and drawing the one before it would
    /// be replaced at once. Entropy-coded data never holds a marker (a 0xFF in it is followed
    /// by 0x00, or is a restart marker), so its end is the next other marker. A wrong answer
    /// costs a picture drawn or skipped, never a wrong picture.
    static func scanDataEnds(in file: UnsafeRawBufferPointer, from offset: Int) -> Bool {
        var i = max(0, offset)
        while i + 1 < file.count {
            if file[i] == 0xFF {
                let next = file[i + 1]
                if next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) { return true }
            }
            i += 1
        }
        return false
    }

    /// The error the whole-file source gives for a file that libjpeg-turbo failed on with
    /// `error`: the marker walk's, when the bytes so far already break it, else libjpeg-turbo's.
    static func wholeFileError(for error: AnimatedImageError, file: UnsafeRawBufferPointer) -> AnimatedImageError {
        do {
            _ = try JPEGMarkerScanner.scan(file)
        } catch let walk {
            if case .truncated = walk { return error }
            return walk
        }
        return error
    }
}
