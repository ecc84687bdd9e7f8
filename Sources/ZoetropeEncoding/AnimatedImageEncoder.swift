import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An encoder for one format. A coder may also adopt this.
///
/// Encoding streams: `makeWriter(canvasSize:options:)` opens an `AnimatedImageWriter` that
/// takes frames one at a time and finishes into `Data` or a file, so memory is bounded by
/// the format's own working set (a previous canvas or two, the codec's state and the
/// output), not by the number of frames. `encode(_:canvasSize:options:)` is the same writer
/// fed from an array.
///
/// **Alpha.** Every encoder takes full-canvas RGBA8 frames in either alpha mode. Frames in
/// premultiplied alpha are converted to straight alpha before anything else
/// (`PixelBuffer.unpremultiplyAlpha()`: exact where the colour survived premultiplication,
/// and a fully transparent pixel becomes transparent black). Straight frames are used as
/// they are.
public protocol AnimatedImageEncoder: Sendable {
    /// The format written.
    var encodingFormat: ImageFormat { get }
    /// Opens a writer for frames of `canvasSize`. Throws `.invalidArgument` for a canvas or
    /// options the format cannot store.
    func makeWriter(canvasSize: PixelSize, options: EncodingOptions) throws -> any AnimatedImageWriter
    /// The plays a file written for `loopCount` stores: `loopCount` itself when the format
    /// can store it, else the nearest count it can (its largest), which the writer then
    /// stores instead of refusing. A count below 1 is not adjusted (`makeWriter` refuses it).
    func storedLoopCount(for loopCount: LoopCount) -> LoopCount
    /// Whether the format keeps alpha apart from colour (a plane or track of its own), so
    /// that `EncodingOptions.framesAreOpaque` saves it: conversions then check the source's
    /// frames before the first is written.
    var storesAlphaSeparately: Bool { get }
    /// The parts of `EncodingOptions.color` and `.metadata` this encoder writes into its
    /// files; the others are left out without an error (conversions warn about them:
    /// `AnimationConversion.unwrittenParts(of:by:)`).
    var writableParts: EmbeddedParts { get }
    /// Whether RGBA16 frames are written with more than 8 bits per channel (APNG's 16, AVIF's
    /// 10 or 12): conversions of a deep source (`AnimationInfo.isDeep`) then decode RGBA16.
    var storesDeepPixels: Bool { get }
}

extension AnimatedImageEncoder {
    /// Every play count stored as asked (an encoder with no upper limit).
    public func storedLoopCount(for loopCount: LoopCount) -> LoopCount { loopCount }

    /// Alpha interleaved with colour, or none: `framesAreOpaque` changes nothing.
    public var storesAlphaSeparately: Bool { false }

    /// Writes none of the colour description or metadata (an encoder that writes some says so).
    public var writableParts: EmbeddedParts { [] }

    /// 8 bits per channel: RGBA16 frames are rounded.
    public var storesDeepPixels: Bool { false }

    /// Encodes full-canvas frames of `canvasSize` into a file's bytes: a writer fed from the array.
    public func encode(_ frames: [EncodingFrame], canvasSize: PixelSize, options: EncodingOptions) throws -> Data {
        let writer = try makeWriter(canvasSize: canvasSize, options: options)
        for frame in frames { try writer.add(frame) }
        return try writer.finish()
    }
}
