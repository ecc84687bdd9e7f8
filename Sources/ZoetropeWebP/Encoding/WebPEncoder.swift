import CWebP
import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes animated WebP: each frame as the rectangle that changed since the canvas before
/// it, encoded by libwebp, streamed into the file as it goes.
///
/// Lossless is the default: `EncodingOptions.quality` nil encodes lossless with exact
/// colours (transparent pixels keep their RGB), so decoding gives back the input canvases
/// exactly. A quality 0–100 encodes lossy (VP8 with an alpha plane), except that a frame of
/// under 194 colours is also encoded losslessly and the smaller kept, so a lossy file is never
/// bigger than lossless frames would make it; `mixed` tries lossy or lossless per frame
/// (lossless under 194 colours, lossy from 31) and keeps the smaller, at that quality (75
/// when none is given). Durations are rounded to whole milliseconds, WebP's unit, and a
/// frame longer than WebP's longest, 16,777,215 ms, is stored that long. A frame identical
/// to the one before it is merged into it: one frame lasting the sum of what the two
/// displayed under the default `DelayPolicy` (two frames of 0 ms, each shown 100 ms, become
/// one of 200 ms), so the timeline plays as before. A single frame is written as a still image.
///
/// Per frame the writer makes the choices libwebp's `WebPAnimEncoder` makes (the changed
/// rectangle at even offsets; the previous frame disposed to the background when that
/// shrinks the rectangle; lossy rectangles ignore differences the quality would lose) with
/// one more: a lossless rectangle is stored blended (unchanged pixels transparent) when at
/// least 90 % of it is unchanged, unblended when under 35 % is, and both are encoded in
/// between, keeping the smaller: blending wins by far on mostly unchanged rectangles and
/// loses on dithered photographs where few pixels stay the same, where `WebPAnimEncoder`,
/// which always blends, writes larger files (Docs/Converting.md, "GIF → lossless WebP").
///
/// Colour and metadata: `EncodingOptions.color.iccProfile` is written as an `ICCP` chunk
/// after `VP8X` (before `ANIM`), `EncodingOptions.metadata` as `EXIF` and `XMP ` chunks after
/// the frames, each with its `VP8X` flag; a still image with any of them is written in the
/// extended format. WebP has no place for the other parts of `ColorInfo` (PNG's `sRGB`,
/// `gAMA`, `cHRM`, H.273 code points): they are not written. Without a profile or metadata
/// the file is exactly what it was before they existed.
///
/// Memory: two ARGB canvases (one for a single frame, which is encoded once, as the still
/// image, at `finish`), the frame being chosen and libwebp's working set for one frame. Finished frames wait in memory up to 1 MiB, then in a temporary file (in
/// `spillDirectory`) that `finish(to:)` renames into place, so the output never sits in
/// memory whole unless `finish()` is asked for `Data`.
public struct WebPEncoder: AnimatedImageEncoder {
    /// libwebp's effort, 0 (fast) to 6 (small).
    public var method: Int
    /// Lossy or lossless per frame, whichever is smaller (libwebp's `allow_mixed` heuristic).
    public var mixed: Bool

    /// Where a writer keeps its finished frames once they pass 1 MiB: nil for the system's
    /// temporary directory. Give the destination's directory when the output goes to a
    /// file there, so `finish(to:)` is a rename rather than a copy.
    public var spillDirectory: URL?

    /// The unchanged share of a lossless rectangle from which it is encoded blended (lower
    /// bound) and below which unblended (upper bound); both in between.
    static let blendFromUnchangedShare = 0.35..<0.9

    /// An encoder with libwebp effort `method` (0–6); `mixed` picks lossy or lossless per frame.
    public init(method: Int = 4, mixed: Bool = false) {
        self.method = method
        self.mixed = mixed
    }

    /// Always `.webp`.
    public var encodingFormat: ImageFormat { .webp }

    /// Opens a streaming writer. Canvases are 1…16383 pixels a side; plays 1…65535 or
    /// infinite (more are stored as 65535: `storedLoopCount(for:)`); quality nil
    /// (lossless) or 0…100.
    public func makeWriter(canvasSize: PixelSize, options: EncodingOptions) throws -> any AnimatedImageWriter {
        guard canvasSize.width >= 1, canvasSize.height >= 1,
            canvasSize.width <= 16383, canvasSize.height <= 16383
        else {
            throw AnimatedImageError.invalidArgument("WebP canvases are 1…16383 pixels a side, got \(canvasSize)")
        }
        let loop: Int32
        switch storedLoopCount(for: options.loopCount ?? .infinite) {
        case .infinite: loop = 0
        case .plays(let n):
            guard n >= 1 else {
                throw AnimatedImageError.invalidArgument("WebP stores 1…65535 plays (or forever), got \(n)")
            }
            loop = Int32(n)
        }
        try options.checkQuality()

        var config = WebPConfig()
        guard
            WebPConfigInitInternal(
                &config, WEBP_PRESET_DEFAULT, Float(options.quality ?? 75),
                WEBP_ENCODER_ABI_VERSION) != 0
        else {
            throw WebPStreamWriter.failure("encoder ABI version mismatch")
        }
        config.method = Int32(max(0, min(6, method)))
        var lossless = config, lossy = config
        lossless.lossless = 1
        lossless.exact = 1
        lossy.lossless = 0
        let mode: WebPStreamWriter.Mode = mixed ? .mixed : (options.quality == nil ? .lossless : .lossy)
        let settings = WebPFrameEncoder(
            lossless: lossless, lossy: lossy,
            lossyTolerance: WebPFrameDiff.lossyTolerance(quality: config.quality),
            blendFromUnchangedShare: Self.blendFromUnchangedShare)
        for (name, count) in [
            ("ICC profile", options.color.iccProfile?.data.count), ("Exif", options.metadata.exif?.count),
            ("XMP", options.metadata.xmp?.count),
        ] {
            if let count, count > WebPChunkWalker.maxChunkPayload {
                throw AnimatedImageError.invalidArgument("a WebP chunk holds at most 4 GiB; the \(name) has \(count) bytes")
            }
        }
        return WebPStreamWriter(
            canvasSize: canvasSize, loopCount: Int(loop), mode: mode, settings: settings,
            spillDirectory: spillDirectory, profile: options.color.iccProfile,
            metadata: options.metadata)
    }

    /// The ICC profile (`ICCP`), Exif (`EXIF`) and XMP (`XMP `).
    public var writableParts: EmbeddedParts { [.iccProfile, .exif, .xmp] }

    /// `loopCount` with more than 65535 plays (the ANIM chunk's 16 bits) lowered to 65535.
    public func storedLoopCount(for loopCount: LoopCount) -> LoopCount {
        loopCount.capped(at: 65535)
    }

    /// A duration rounded to the nearest whole millisecond.
    static func milliseconds(_ d: FrameDuration) -> Int {
        let ms = (Int128(d.numerator) * 1000 + Int128(d.denominator / 2)) / Int128(d.denominator)
        return ms > Int128(Int.max) ? .max : Int(ms)
    }
}
