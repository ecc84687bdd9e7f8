import CAVIF
import Zoetrope

/// One libavif decoder over Zoetrope's own copy of the file, plus what it needs between
/// frames. Not thread-safe: `AVIFFrameSource` keeps it behind a lock.
final class AVIFDecodeState {
    /// What libavif's reader reads from (`AVIFFileBytes`, or an incremental session's
    /// `AVIFGrowingIO`), kept alive as long as the decoder.
    private let reader: AnyObject
    /// Bytes of the file copy this state owns (0 when the bytes belong to someone else).
    private let fileByteCount: Int
    /// libavif's reader over `reader` (see `AVIFFileIO`, `AVIFGrowingIO`), owned here and freed after the decoder.
    private let io: UnsafeMutablePointer<avifIO>
    let decoder: UnsafeMutablePointer<avifDecoder>
    /// The frame now in `decoder.image`, if any.
    private var currentIndex: Int?
    /// Whether libavif has been asked for any frame yet (so frame 0 can come from `NextImage`).
    private var started = false
    /// Bytes of one frame's YUV(A) planes, computed once after the parse.
    private var planeBytes = 0
    /// RGBA rows of one band of a frame being downsampled (`downsample`): never the whole frame
    /// unless it is short.
    private var band = PixelBuffer()
    /// The whole frame as RGBA16 when deep output is downsampled: kept from frame to frame.
    private var deepFrame = PixelBuffer(width: 0, height: 0, format: .rgba16)
    /// For each frame, the nearest key frame at or before it (libavif's sync samples).
    private(set) var restartFrames: [Int] = []
    /// Frames libavif has been asked to decode so far, counted the way its
    /// `avifDecoderNthImage` walks: from the nearest key frame, or on from the current frame
    /// when that is nearer (libavif does not report the frames it decodes).
    private(set) var decodedFrameCount = 0
    /// The conversion of the file's colour to sRGB (`ColorManagement.prepare`), applied to
    /// each frame after libavif's YUV→RGB and any downsampling, before premultiplying.
    var colorTransform: (any ColorTransform)?

    /// Parses `file` (kept alive by the session) with libavif, whose reader reports
    /// `sizeHint` as the size of the content (see `AVIFFileIO`).
    convenience init(
        file: AVIFFileBytes, sizeHint: Int, source: avifDecoderSource, threads: Int, limits: Limits,
        readsMetadata: Bool = false
    ) throws(AnimatedImageError) {
        try self.init(
            io: AVIFFileIO.make(file: file, sizeHint: sizeHint), reader: file, fileByteCount: file.count,
            source: source, threads: threads, limits: limits, readsMetadata: readsMetadata)
    }

    /// Parses through `io` (made with `AVIFFileIO.make` or `AVIFGrowingIO.makeIO`; freed by
    /// this state), whose context `reader` stays alive while the decoder does.
    /// `readsMetadata`: libavif reads the Exif and XMP items into the parsed image
    /// (otherwise it skips them, `configure`).
    init(
        io: UnsafeMutablePointer<avifIO>, reader: AnyObject, fileByteCount: Int, source: avifDecoderSource, threads: Int,
        limits: Limits, readsMetadata: Bool = false
    ) throws(AnimatedImageError) {
        do throws(AnimatedImageError) {
            try LibAVIF.load()
        } catch {
            AVIFFileIO.deallocate(io)
            throw error
        }
        guard let decoder = avifDecoderCreate() else {
            AVIFFileIO.deallocate(io)
            throw .codecFailure(format: .avif, library: "libavif", message: "avifDecoderCreate: out of memory")
        }
        self.reader = reader
        self.fileByteCount = fileByteCount
        self.decoder = decoder
        self.io = io
        decoder.pointee.maxThreads = Int32(clamping: max(1, threads))
        AVIFDecodeState.configure(decoder, limits: limits)
        if readsMetadata {
            decoder.pointee.ignoreExif = AVIF_FALSE
            decoder.pointee.ignoreXMP = AVIF_FALSE
        }
        var r = avifDecoderSetSource(decoder, source)
        guard r == AVIF_RESULT_OK else { throw AVIFResultError.make(r, decoder, during: "avifDecoderSetSource") }
        avifDecoderSetIO(decoder, io)
        r = avifDecoderParse(decoder)
        guard r == AVIF_RESULT_OK else {
            let failure = AVIFResultError.make(r, decoder, during: "avifDecoderParse")
            if r == AVIF_RESULT_TRUNCATED_DATA { throw .truncated(format: .avif, completeFrames: 0, reason: failure.description) }
            throw failure
        }
        let image = decoder.pointee.image.pointee
        // Two 32-bit sizes can overflow Int together (libavif's size limit normally stops that first).
        let (pixels, o1) = Int(image.width).multipliedReportingOverflow(by: Int(image.height))
        let (bytes, o2) = pixels.multipliedReportingOverflow(by: (image.depth > 8 ? 2 : 1) * (decoder.pointee.alphaPresent == AVIF_TRUE ? 4 : 3))
        planeBytes = o1 || o2 ? .max : bytes
    }

    deinit {
        avifDecoderDestroy(decoder)
        AVIFFileIO.deallocate(io)
    }

    /// Bytes held: the file copy, the downsampling band and an estimate of libavif's YUV(A)
    /// planes; dav1d's reference frames are not counted.
    var retainedByteCount: Int {
        fileByteCount + band.byteCount + deepFrame.byteCount + (started ? planeBytes : 0)
    }

    /// Records where each of the `count` frames restarts; call once, before decoding.
    func setFrameCount(_ count: Int) {
        restartFrames = []
        restartFrames.reserveCapacity(count)
        for i in 0..<count {
            restartFrames.append(i == 0 || avifDecoderIsKeyframe(decoder, UInt32(i)) == AVIF_TRUE ? i : restartFrames[i - 1])
        }
    }

    /// Decodes frame `index` (sequentially when it follows the current one, else from the
    /// nearest key frame) and writes it as RGBA8 at `size` in `format`.
    func decode(_ index: Int, canvasSize: PixelSize, into buffer: inout PixelBuffer, size: PixelSize, format: PixelFormat) throws(AnimatedImageError)
    {
        if currentIndex != index {
            let r: avifResult
            let next = currentIndex.map { $0 + 1 } ?? (started ? -1 : 0)
            started = true
            if index == next {
                decodedFrameCount += 1
                r = avifDecoderNextImage(decoder)
            } else {
                // What avifDecoderNthImage decodes: on from the frame it holds when the key
                // frame is not nearer, else from the key frame.
                let at = Int(decoder.pointee.imageIndex), key = index < restartFrames.count ? restartFrames[index] : index
                decodedFrameCount += key > at + 1 || index <= at ? index - key + 1 : index - at
                r = avifDecoderNthImage(decoder, UInt32(index))
            }
            guard r == AVIF_RESULT_OK else {
                currentIndex = nil
                throw AVIFDecodeState.frameError(r, decoder, index: index)
            }
            currentIndex = index
        }
        let image = decoder.pointee.image!
        guard Int(image.pointee.width) == canvasSize.width, Int(image.pointee.height) == canvasSize.height else {
            throw .invalidData(
                format: .avif, reason: "frame \(index) is \(image.pointee.width)×\(image.pointee.height), the sequence is \(canvasSize)")
        }
        try convert(image, into: &buffer, canvasSize: canvasSize, size: size, format: format)
    }

    private func convert(
        _ image: UnsafeMutablePointer<avifImage>, into buffer: inout PixelBuffer, canvasSize: PixelSize,
        size: PixelSize, format: PixelFormat
    ) throws(AnimatedImageError) {
        if format.channelDepth == .sixteen {
            // Deep pixels: YUV to 16-bit RGB without rounding through 8.
            if size == canvasSize {
                try AVIFDecodeState.convert(
                    image, into: &buffer, premultiplied: format.alphaMode == .premultiplied && colorTransform == nil, depth: .sixteen)
                if let colorTransform {
                    buffer.applyColorTransform(colorTransform)
                    if format.alphaMode == .premultiplied { buffer.premultiplyAlpha() }
                }
                return
            }
            // Smaller: the shared copy downsamples the whole frame, then converts colour and premultiplies.
            try AVIFDecodeState.convert(image, into: &deepFrame, premultiplied: false, depth: .sixteen)
            deepFrame.copy(into: &buffer, size: size, format: format, colorTransform: colorTransform)
            return
        }
        if size == canvasSize {
            guard let colorTransform else {
                try AVIFDecodeState.convert(image, into: &buffer, premultiplied: format.alphaMode == .premultiplied)
                return
            }
            try AVIFDecodeState.convert(image, into: &buffer, premultiplied: false)
            buffer.applyColorTransform(colorTransform)
            if format.alphaMode == .premultiplied { buffer.premultiplyAlpha() }
        } else {
            try AVIFDecodeState.downsample(
                image, into: &buffer, size: size, premultiplied: format.alphaMode == .premultiplied && colorTransform == nil, band: &band)
            if let colorTransform {
                buffer.applyColorTransform(colorTransform)
                if format.alphaMode == .premultiplied { buffer.premultiplyAlpha() }
            }
        }
    }

    /// Source rows converted per band when downsampling (at least the rows of one output row).
    static let bandRows = 128

    /// Box-filters `image` down to `size` (`PixelBuffer.copy(into:size:format:)`'s filter and
    /// pixels) a band of output rows at a time: each band converts to RGBA only the source
    /// rows its boxes read, plus four rows of context above and below so that libavif's
    /// chroma upsampling reads what it reads on the whole frame. A frame shown small never
    /// has a full-size RGBA copy.
    static func downsample(
        _ image: UnsafeMutablePointer<avifImage>, into output: inout PixelBuffer, size: PixelSize, premultiplied: Bool,
        band: inout PixelBuffer
    ) throws(AnimatedImageError) {
        let w = Int(image.pointee.width), h = Int(image.pointee.height)
        let ow = max(1, min(size.width, w)), oh = max(1, min(size.height, h))
        output.format = premultiplied ? .rgba8Premultiplied : .rgba8
        output.reshape(width: ow, height: oh)
        guard w > 0, h > 0 else { return }
        guard let view = avifImageCreateEmpty() else {
            throw AnimatedImageError.codecFailure(format: .avif, library: "libavif", message: "out of memory for an image view")
        }
        defer { avifImageDestroy(view) }
        let outRowsPerBand = max(1, bandRows * oh / h)
        var oy = 0
        while oy < oh {
            let end = min(oh, oy + outRowsPerBand)
            // The rows the boxes of output rows oy..<end read (as PixelBuffer.boxDownsample
            // computes them), widened by the context and to even rows, which a 4:2:0 view needs.
            let first = oy * h / oh, last = max((end - 1) * h / oh + 1, end * h / oh)
            let top = max(0, first - 4) & ~1
            var bottom = min(h, last + 4)
            if bottom < h { bottom = min(h, (bottom + 1) & ~1) }
            var rect = avifCropRect(x: 0, y: UInt32(top), width: UInt32(w), height: UInt32(bottom - top))
            let r = avifImageSetViewRect(view, image, &rect)
            guard r == AVIF_RESULT_OK else { throw AVIFResultError.make(r, nil, during: "avifImageSetViewRect") }
            try convert(view, into: &band, premultiplied: false)
            let stride = band.bytesPerRow, outStride = output.bytesPerRow
            band.bytes.withUnsafeBytes { src in
                output.bytes.withUnsafeMutableBytes { dst in
                    PixelBuffer.boxDownsample(
                        src: src.baseAddress!.assumingMemoryBound(to: UInt8.self), srcStride: stride,
                        region: PixelRect(x: 0, y: top, width: w, height: bottom - top), canvasW: w, canvasH: h,
                        dst: dst.baseAddress!.assumingMemoryBound(to: UInt8.self), dstStride: outStride, dstW: ow, dstH: oh,
                        premultipliedOutput: premultiplied, rows: oy..<end)
                }
            }
            oy = end
        }
    }

    static func frameError(_ r: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>, index: Int) -> AnimatedImageError {
        let failure = AVIFResultError.make(r, decoder, during: "decoding frame \(index)")
        if r == AVIF_RESULT_TRUNCATED_DATA {
            return .truncated(format: .avif, completeFrames: index, reason: failure.description)
        }
        return failure
    }

    /// YUV(A) at any depth → RGBA at `depth` straight (or premultiplied), honouring the
    /// image's range and matrix; no alpha plane gives opaque pixels. RGBA16 goes through
    /// the conversion libavif gives RGBA8 (`AVIFDeepConversion`) wherever that is libyuv's,
    /// so that the two depths agree.
    static func convert(
        _ image: UnsafeMutablePointer<avifImage>, into buffer: inout PixelBuffer, premultiplied: Bool, depth: ChannelDepth = .eight
    ) throws(AnimatedImageError) {
        if depth == .sixteen, let plan = AVIFDeepConversion.plan(for: image.pointee) {
            AVIFDeepConversion.convert(image, plan: plan, into: &buffer, premultiplied: premultiplied)
            return
        }
        let w = Int(image.pointee.width), h = Int(image.pointee.height)
        buffer.format = PixelFormat(alphaMode: premultiplied ? .premultiplied : .straight, channelDepth: depth)
        buffer.reshape(width: w, height: h)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = UInt32(depth.rawValue)
        rgb.alphaPremultiplied = premultiplied ? AVIF_TRUE : AVIF_FALSE
        rgb.rowBytes = UInt32(buffer.bytesPerRow)
        let r = buffer.bytes.withUnsafeMutableBytes { raw -> avifResult in
            rgb.pixels = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return avifImageYUVToRGB(image, &rgb)
        }
        guard r == AVIF_RESULT_OK else { throw AVIFResultError.make(r, nil, during: "avifImageYUVToRGB") }
    }
}

extension AVIFDecodeState {
    /// The settings every libavif decoder of Zoetrope's gets, the whole-file one and the
    /// incremental session's metadata parse alike: tolerate a missing pixi and an invalid
    /// clap (as browsers, Pillow and the reference decoder do), Zoetrope's limits handed to
    /// libavif (and through it to dav1d), Exif and XMP ignored.
    static func configure(_ decoder: UnsafeMutablePointer<avifDecoder>, limits: Limits) {
        decoder.pointee.strictFlags &= ~avifStrictFlags(AVIF_STRICT_CLAP_VALID.rawValue | AVIF_STRICT_PIXI_REQUIRED.rawValue)
        decoder.pointee.imageSizeLimit = UInt32(clamping: max(1, min(limits.maxCanvasPixels, Int(AVIF_DEFAULT_IMAGE_SIZE_LIMIT))))
        decoder.pointee.imageDimensionLimit = UInt32(clamping: max(1, min(max(limits.maxWidth, limits.maxHeight), Int(UInt32.max))))
        decoder.pointee.imageCountLimit = UInt32(clamping: max(1, limits.maxFrameCount))
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
    }
}
