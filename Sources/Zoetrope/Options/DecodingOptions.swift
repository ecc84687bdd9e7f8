/// How a `FrameSource` decodes.
public struct DecodingOptions: Hashable, Sendable {
    /// Straight (default) or premultiplied alpha in the frames written to callers.
    public var pixelFormat: PixelFormat
    /// When set, frames are downsampled while decoding to fit inside this size, keeping
    /// the aspect ratio. Never upsamples.
    public var targetSize: PixelSize?
    /// Bounds checked before every allocation.
    public var limits: Limits
    /// Threads for decoding. A codec whose library decodes one frame on several threads:
    /// that library's threads. Bulk runs (`BulkFrameDecoder`, `AnimatedImage.frames()`):
    /// the threads that decode frames' data ahead of compositing. Colour conversion of a big
    /// frame: the bands converted at once. nil: the codec's measured default, and the cores
    /// the process may use for bulk runs and colour; 1: one frame after another, on one thread.
    public var threadCount: Int?
    /// Whether a first frame whose bytes have not all arrived shows what has: the rows
    /// decoded so far, the rest transparent, as browsers show an image still loading.
    /// Off by default: a file that ends inside its first frame then fails to open (the
    /// rule every whole-file consumer relies on). On: such a file has that one partial frame
    /// (with its `truncation`), and an incremental source counts frame 0 while it arrives
    /// (`IncrementalSnapshot.firstFrameIsPartial`). Codecs that decode row by row honour it;
    /// the others show whole frames only (each codec's documentation says which).
    public var showsPartialFirstFrame: Bool
    /// The values frames hold when the file declares a colour space other than sRGB:
    /// converted to sRGB (the default, what a browser shows) or as stored.
    public var colorOutput: ColorOutput
    /// The thresholds that pick decoding paths (`DecoderTuning.standard`): tests and the
    /// benchmarks switch single fast paths off with it.
    package var tuning: DecoderTuning = .standard

    /// Creates options; the defaults are straight RGBA8, full size, default limits, sRGB.
    public init(
        pixelFormat: PixelFormat = .rgba8, targetSize: PixelSize? = nil, limits: Limits = .default,
        threadCount: Int? = nil, showsPartialFirstFrame: Bool = false, colorOutput: ColorOutput = .sRGB
    ) {
        self.pixelFormat = pixelFormat
        self.targetSize = targetSize
        self.limits = limits
        self.threadCount = threadCount
        self.showsPartialFirstFrame = showsPartialFirstFrame
        self.colorOutput = colorOutput
    }

    /// Default options.
    public static let `default` = DecodingOptions()

    /// The size frames of a `canvas`-sized image are delivered at: the canvas, or the
    /// largest size inside `targetSize` with the canvas's aspect ratio (at least 1×1).
    package func outputSize(forCanvas canvas: PixelSize) -> PixelSize {
        guard let target = targetSize, canvas.width > 0, canvas.height > 0,
            target.width < canvas.width || target.height < canvas.height
        else { return canvas }
        let tw = max(1, target.width), th = max(1, target.height)
        // Scale by the tighter of the two ratios, computed in integers.
        if tw * canvas.height <= th * canvas.width {
            return PixelSize(width: tw, height: max(1, (canvas.height * tw + canvas.width / 2) / canvas.width))
        } else {
            return PixelSize(width: max(1, (canvas.width * th + canvas.height / 2) / canvas.height), height: th)
        }
    }
}
