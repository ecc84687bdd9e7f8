/// What a `FrameSource` knows about its image before decoding any pixel.
public struct AnimationInfo: Hashable, Sendable {
    /// The format, sniffed from content (a PNG with a valid animation is `.apng`, one
    /// whose animation chunks are broken falls back to `.png`).
    public var format: ImageFormat
    /// The canvas every frame is composited onto.
    public var canvasSize: PixelSize
    /// Each frame's duration as the file stores it, before any `DelayPolicy`. A missing
    /// delay is `.zero`. Its count is the frame count.
    public var frameDurations: [FrameDuration]
    /// Total plays, normalised from the format's own rule.
    public var loopCount: LoopCount
    /// The loop value exactly as stored (GIF NETSCAPE count, APNG `num_plays`, WebP loop
    /// count, AVIF repetitions), or nil when the file stores none.
    package var storedLoopValue: Int?
    /// Whether frames may carry transparency (nil: not known without decoding).
    public var hasAlpha: Bool?
    /// Set when the file ended early or broke after `frameCount` good frames: those frames
    /// decode, and this says what went wrong after them.
    public var truncation: AnimatedImageError?
    /// What the file gets wrong that the decoder works around, one line each, saying what
    /// it does instead (for example a GIF frame drawing colours its table lacks, drawn
    /// opaque black as Chromium does). Empty for a well-formed file. Every frame still
    /// decodes; `truncation` is where frames are lost.
    public var warnings: [String]
    /// The colour space the file declares for its stored values (`.unspecified`: sRGB).
    /// Decoded frames are in sRGB or in these values as `DecodingOptions.colorOutput` says.
    public var color: ColorInfo
    /// Exif and XMP the file carries.
    public var metadata: EmbeddedMetadata
    /// Bits per channel of the file's samples: 16 for a 16-bit PNG, 10 or 12 for a deep
    /// AVIF, 8 otherwise (PNG's lower depths widen to 8 without loss). Above 8, decoding
    /// to `PixelFormat.rgba16` keeps every bit.
    public var bitsPerChannel: Int

    /// Creates an info value.
    public init(
        format: ImageFormat, canvasSize: PixelSize, frameDurations: [FrameDuration],
        loopCount: LoopCount, storedLoopValue: Int?, hasAlpha: Bool? = nil,
        truncation: AnimatedImageError? = nil, warnings: [String] = [],
        color: ColorInfo = .unspecified, metadata: EmbeddedMetadata = .none, bitsPerChannel: Int = 8
    ) {
        self.format = format
        self.canvasSize = canvasSize
        self.frameDurations = frameDurations
        self.loopCount = loopCount
        self.storedLoopValue = storedLoopValue
        self.hasAlpha = hasAlpha
        self.truncation = truncation
        self.warnings = warnings
        self.color = color
        self.metadata = metadata
        self.bitsPerChannel = bitsPerChannel
    }

    /// The number of frames that decode.
    public var frameCount: Int { frameDurations.count }

    /// More than one frame.
    public var isAnimated: Bool { frameDurations.count > 1 }

    /// Whether the file stores more than 8 bits per channel, which RGBA8 frames round.
    package var isDeep: Bool { bitsPerChannel > 8 }

    /// Bytes of one decoded RGBA8 canvas.
    package var frameByteCount: Int { canvasSize.rgbaByteCount ?? .max }

    /// Bytes if every frame were decoded and kept: what "decode everything" costs
    /// (`Int.max` when that does not fit an `Int`).
    package var allFramesByteCount: Int {
        var tally = AllocationBudget(limits: .none, format: format)
        tally.reserve(frameCount, bytesEach: canvasSize.rgbaByteCount)
        return tally.total
    }

    /// The sum of raw durations (one play).
    public var totalDuration: FrameDuration { frameDurations.reduce(.zero, +) }

    /// Display durations after `policy`.
    public func displayDurations(_ policy: DelayPolicy = .default) -> [FrameDuration] {
        frameDurations.map { policy.displayDuration(for: $0) }
    }
}
