/// Bounds a decoder checks before every allocation, so hostile input cannot make
/// Zoetrope allocate without bound.
///
/// The defaults allow any realistic animation (up to 67 million pixels per canvas, sides
/// up to 65535 as in GIF's 65535×1 strips, 10,000 frames, 1 GiB held by one decoder,
/// 2^30 composited pixels per play — a 1080p animation of 500 frames) while refusing the
/// classic bombs: a 65535×65535 GIF screen is 16 GiB of RGBA and fails `maxCanvasPixels`
/// before anything is allocated, and 200 frames of 4096×4096 ask for 3.4 × 10^9 pixels per
/// play and fail `maxPixelsPerPlay` as soon as the index has counted them.
public struct Limits: Hashable, Sendable {
    /// The widest canvas or frame accepted, in pixels.
    public var maxWidth: Int
    /// The tallest canvas or frame accepted, in pixels.
    public var maxHeight: Int
    /// The most pixels in one canvas or frame (width × height).
    public var maxCanvasPixels: Int
    /// The most frames one image may have.
    public var maxFrameCount: Int
    /// The most bytes one decoding session may allocate for pixels and decoder state
    /// (canvas, frame rasters, saved regions, the library's own buffers where it lets us bound them).
    /// An incremental session holds the file's bytes as well, and counts them against it.
    public var maxAllocationBytes: Int
    /// The most composited pixels one play of the animation may ask for: frame count × canvas
    /// width × height. Bounds the total work of decoding a file, which memory limits alone do
    /// not (a small file can hold many large, highly compressed frames).
    public var maxPixelsPerPlay: Int

    /// Creates limits; every parameter defaults to the documented safe value.
    public init(
        maxWidth: Int = 65_535, maxHeight: Int = 65_535, maxCanvasPixels: Int = 16_384 * 16_384 / 4,
        maxFrameCount: Int = 10_000, maxAllocationBytes: Int = 1 << 30, maxPixelsPerPlay: Int = 1 << 30
    ) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxCanvasPixels = maxCanvasPixels
        self.maxFrameCount = maxFrameCount
        self.maxAllocationBytes = maxAllocationBytes
        self.maxPixelsPerPlay = maxPixelsPerPlay
    }

    /// The safe defaults.
    public static let `default` = Limits()

    /// No practical limit. For trusted input only.
    public static let none = Limits(
        maxWidth: .max, maxHeight: .max, maxCanvasPixels: .max,
        maxFrameCount: .max, maxAllocationBytes: .max, maxPixelsPerPlay: .max)

    /// Throws `.limitExceeded` unless a `width`×`height` canvas (or frame) fits.
    public func checkSize(width: Int, height: Int, format: ImageFormat) throws(AnimatedImageError) {
        guard width >= 0, height >= 0 else {
            throw .invalidData(format: format, reason: "negative size \(width)×\(height)")
        }
        if width > maxWidth { throw .limitExceeded(format: format, limit: .width, requested: width, allowed: maxWidth) }
        if height > maxHeight { throw .limitExceeded(format: format, limit: .height, requested: height, allowed: maxHeight) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxCanvasPixels {
            throw .limitExceeded(format: format, limit: .canvasPixels, requested: overflow ? .max : pixels, allowed: maxCanvasPixels)
        }
    }

    /// Throws `.limitExceeded` when `count` frames is more than allowed.
    public func checkFrameCount(_ count: Int, format: ImageFormat) throws(AnimatedImageError) {
        if count > maxFrameCount {
            throw .limitExceeded(format: format, limit: .frameCount, requested: count, allowed: maxFrameCount)
        }
    }

    /// Throws `.limitExceeded` when a session holding `bytes` in all would pass the allocation
    /// limit; nil (a size that did not fit an `Int`) always does. A session made of several
    /// parts checks their sum.
    public func checkAllocation(_ bytes: Int?, format: ImageFormat) throws(AnimatedImageError) {
        var budget = AllocationBudget(limits: self, format: format)
        budget.reserve(bytes)
        try budget.check()
    }

    /// Checks a canvas's size and that `count` RGBA8 canvases of it fit the allocation limit.
    public func checkCanvases(_ size: PixelSize, count: Int, format: ImageFormat) throws(AnimatedImageError) {
        try checkSize(width: size.width, height: size.height, format: format)
        var budget = AllocationBudget(limits: self, format: format)
        budget.reserve(count, bytesEach: size.rgbaByteCount)
        try budget.check()
    }

    /// Throws `.limitExceeded(.pixelsPerPlay)` when `frameCount` composited canvases of
    /// `canvas` pass `maxPixelsPerPlay`. Call it whenever the index learns of another frame,
    /// so a file is refused as soon as it has asked for too much.
    public func checkPixelsPerPlay(frameCount: Int, canvas: PixelSize, format: ImageFormat) throws(AnimatedImageError) {
        let (total, overflow) = (canvas.pixelCount ?? .max).multipliedReportingOverflow(by: max(0, frameCount))
        if overflow || total > maxPixelsPerPlay {
            throw .limitExceeded(format: format, limit: .pixelsPerPlay, requested: overflow ? .max : total, allowed: maxPixelsPerPlay)
        }
    }
}
