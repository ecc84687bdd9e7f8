/// What an incremental source knows after the bytes received so far.
///
/// It grows as bytes arrive: the format once the signature is in, the canvas once the
/// header says it, each frame's duration once all of the frame's bytes are there, the
/// plays as soon as the file states them. `frameCount` counts the frames that decode now;
/// once `state` is `.complete`, `info` is exactly the `AnimationInfo` the whole-file
/// source gives for the same bytes.
public struct IncrementalSnapshot: Hashable, Sendable {
    /// Receiving, complete or failed.
    public var state: IncrementalState
    /// Bytes appended so far.
    public var receivedByteCount: Int
    /// The format, once the signature is in. For a PNG it is `.apng` while the animation
    /// chunks are valid and `.png` for a still image or a broken animation.
    package var format: ImageFormat?
    /// The canvas every frame is composited onto, once the file has said it (a PNG's
    /// `IHDR`; a GIF's first image descriptor, as the canvas grows to hold the first frame).
    package var canvasSize: PixelSize?
    /// The raw duration of each frame whose bytes have all arrived, in order: its count is
    /// the number of frames that decode now.
    package var frameDurations: [FrameDuration]
    /// Total plays as the file has stated them so far (a GIF's NETSCAPE2.0/ANIMEXTS1.0
    /// block, an APNG's `acTL`); nil while the file has not said. A GIF that never says
    /// plays once, and a later loop block replaces an earlier one (the last counts).
    package var loopCount: LoopCount?
    /// The loop value exactly as stored, when the file has stored one.
    package var storedLoopValue: Int?
    /// Whether frames may carry transparency, as far as the frames so far tell (nil: not
    /// known without decoding).
    package var hasAlpha: Bool?
    /// Set once the file is known to end early or break after the frames so far.
    package var truncation: AnimatedImageError?
    /// What the file gets wrong that decoding works around (see `AnimationInfo.warnings`).
    package var warnings: [String]
    /// Increases each time frames already reported were withdrawn: an APNG whose animation
    /// chunks turn out broken is shown as its still image, as the whole-file source shows
    /// it, so the frames of the earlier revision no longer exist. A consumer that kept
    /// frames of an earlier revision drops them. WebP withdraws frames when the whole-file
    /// index made at the end disagrees with the frames its chunk walker reported; GIF and
    /// WebP when a colour profile turns up only after the first frame (the frames reported
    /// were not converted); a progressive still at each scan that refines its picture.
    public var revision: Int
    /// Frame 0 is counted while its bytes are still arriving
    /// (`DecodingOptions.showsPartialFirstFrame`): it decodes to the rows so far, the rest
    /// transparent, and decodes again to more as bytes arrive.
    public var firstFrameIsPartial = false
    /// The colour the file declares (see `AnimationInfo.color`), once the part of the file
    /// that may declare it has arrived (for a PNG, the chunks before the image data).
    public var color = ColorInfo.unspecified
    /// The file's Exif and XMP (`AnimationInfo.metadata`), known once `state` is `.complete`
    /// (none before).
    public var metadata = EmbeddedMetadata.none
    /// Bits per channel of the file's samples (`AnimationInfo.bitsPerChannel`), once its
    /// header has arrived (8 before).
    public var bitsPerChannel = 8

    /// A snapshot of a source that has received `receivedByteCount` bytes and knows nothing yet.
    public init(
        state: IncrementalState = .receiving, receivedByteCount: Int = 0, format: ImageFormat? = nil,
        canvasSize: PixelSize? = nil, frameDurations: [FrameDuration] = [], loopCount: LoopCount? = nil,
        storedLoopValue: Int? = nil, hasAlpha: Bool? = nil, truncation: AnimatedImageError? = nil,
        warnings: [String] = [], revision: Int = 0
    ) {
        self.state = state
        self.receivedByteCount = receivedByteCount
        self.format = format
        self.canvasSize = canvasSize
        self.frameDurations = frameDurations
        self.loopCount = loopCount
        self.storedLoopValue = storedLoopValue
        self.hasAlpha = hasAlpha
        self.truncation = truncation
        self.warnings = warnings
        self.revision = revision
    }

    /// The frames that decode now (`0..<frameCount`): those whose bytes have all arrived,
    /// and a first frame still arriving when `firstFrameIsPartial`.
    public var frameCount: Int { frameDurations.count }

    /// Whether more frames may still come (the state is `.receiving`).
    public var mayGrow: Bool { state == .receiving }

    /// The snapshot as an `AnimationInfo`, once the format and the canvas are known (nil
    /// before). Plays the file has not stated yet count as one play. Once `state` is
    /// `.complete` it equals the whole-file source's info.
    public var info: AnimationInfo? {
        guard let format, let canvasSize else { return nil }
        return AnimationInfo(
            format: format, canvasSize: canvasSize, frameDurations: frameDurations,
            loopCount: loopCount ?? .once, storedLoopValue: storedLoopValue, hasAlpha: hasAlpha,
            truncation: truncation, warnings: warnings, color: color, metadata: metadata,
            bitsPerChannel: bitsPerChannel)
    }
}
