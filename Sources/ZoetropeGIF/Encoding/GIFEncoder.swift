import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes animated GIFs with giflib's `EGif*` API, with its own colour quantiser.
///
/// - **Colours.** A frame whose changed pixels hold at most 255 colours (plus transparency)
///   is written exactly. A frame with more is quantised with `ColorQuantizer` (Wu's cuts,
///   refined by k-means, in weighted sRGB), optionally dithered (`dither`). The first
///   frame's palette becomes the global colour table; a later frame whose colours all appear
///   in it uses it, others carry a local table.
/// - **Transparency.** GIF has one transparent index and no partial alpha: alpha below 128
///   is transparent, 128 and above opaque (a 50 % threshold).
/// - **Size.** Each frame stores only the rectangle that changed; unchanged pixels inside it
///   become transparent when that makes the LZW data smaller. Each frame's disposal (keep or
///   clear to background) is chosen when the next frame arrives, whichever needs the smaller
///   rectangle next (clearing is required where the next frame turns pixels transparent).
/// - **Timing.** Durations round to the nearest centisecond, at most 655.35 s. A duration
///   over 10 ms is written as at least 2 cs, since browsers show 0 or 1 cs for 100 ms;
///   10 ms or less is written as is (0 or 1 cs), shown for 100 ms like the source. Plays
///   N → NETSCAPE2.0 loop N − 1, one play → no loop block, forever → 0.
/// - **Colour and metadata.** `EncodingOptions.color.iccProfile` is written as the ICC's
///   `ICCRGBG1` application extension (after the loop block), which GIF decoders that manage
///   colour read; without it a GIF is sRGB by convention, and GIF has no place for the other
///   parts of `ColorInfo` (code points, PNG's chunks) or for `EncodingOptions.metadata`
///   (Exif, XMP): they are not written.
///
/// A source with at most 256 colours per frame and binary alpha comes back pixel-identical
/// (colour of fully transparent pixels aside) unless `lossy` is set. `EncodingOptions.quality` is ignored.
public struct GIFEncoder: AnimatedImageEncoder {
    /// Dithering for quantised frames.
    public var dither: GIFDither
    /// LZW-aware lossy compression (nil or 0: exact), on gifsicle's `--lossy` scale: where
    /// the LZW dictionary has a string that matches the next pixels but for colours whose
    /// squared distance from theirs (8-bit RGB) is at most 10 × `lossy`, the pixels take
    /// those colours and the string is used, which makes the image data smaller. 60 lets a
    /// colour move by up to 24.5; 0…20000 (from 19,508 on, any colour qualifies). Every
    /// pixel drawn stays within that distance of the colour it would have had (its source
    /// colour, or its quantised one in a frame of more than 256 colours); transparency is
    /// kept exactly. The first frame's pixels that the second keeps (the backdrop, which
    /// stays on screen until a later frame draws there) move at most a quarter as far: a
    /// sixteenth of the squared distance. 20–200 is a light to strong setting, as in
    /// gifsicle.
    public var lossy: Int?

    /// An encoder; frames with more than 256 colours are quantised with `dither`, and `lossy`
    /// lets LZW strings match colours within a squared distance of 10 × `lossy`.
    public init(dither: GIFDither = .none, lossy: Int? = nil) {
        self.dither = dither
        self.lossy = lossy
    }

    /// The largest `lossy`; from 19,508 on (10 × 19,508 ≥ 3 × 255²) every colour qualifies.
    public static let maxLossy = 20000

    /// Always `.gif`.
    public var encodingFormat: ImageFormat { .gif }

    /// The ICC profile only (the `ICCRGBG1` extension).
    public var writableParts: EmbeddedParts { [.iccProfile] }

    /// Opens a streaming writer. Canvases are 1…65535 pixels a side; more than 65536 plays
    /// are stored as 65536.
    public func makeWriter(canvasSize: PixelSize, options: EncodingOptions) throws -> any AnimatedImageWriter {
        guard (1...65535).contains(canvasSize.width), (1...65535).contains(canvasSize.height) else {
            throw AnimatedImageError.invalidArgument("GIF canvases are 1…65535 pixels a side, got \(canvasSize)")
        }
        if let lossy, !(0...GIFEncoder.maxLossy).contains(lossy) {
            throw AnimatedImageError.invalidArgument(
                "GIF lossy is 0…\(GIFEncoder.maxLossy) (gifsicle's scale: squared colour distance ÷ 10), got \(lossy)")
        }
        let loop = try GIFEncoder.netscapeLoopValue(for: options.loopCount ?? .infinite)
        return GIFStreamWriter(
            canvasSize: canvasSize, loopValue: loop, dither: dither, lossy: lossy ?? 0,
            profile: options.color.iccProfile)
    }
}
