import CGIF
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes GIF87a and GIF89a, still and animated, over giflib, the way browsers show them.
///
/// - Every image descriptor is a frame; its raw delay is the last graphic control
///   extension before it (centiseconds, 0 without one). Clamping is the player's job.
/// - Plays: no NETSCAPE2.0/ANIMEXTS1.0 block → 1; a stored count N → N + 1; 0 → forever;
///   with several loop blocks the last one counts.
/// - The canvas starts transparent and grows to hold the first frame; later frames are
///   clipped. The background colour is ignored: disposal 2 clears to transparent, 3 (and 4)
///   restores the canvas from before the frame, 0, 1 and 5–7 keep the frame.
/// - A colour index past the frame's colour table (every index, with no table at all) is
///   drawn opaque black, as Chromium does, and reported in `AnimationInfo.warnings`. The
///   transparent index may lie past the table.
/// - LZW data that ends early keeps the pixels it gave (the rest shows what was under). A
///   corrupt LZW code (past the next free table entry) ends the animation before its frame,
///   reported in `AnimationInfo.truncation`; code sizes above 8 are invalid data. Plain text
///   is not rendered.
/// - A file with a screen but no image is one transparent frame; an empty screen with no
///   image is invalid.
public struct GIFCoder: AnimatedImageCoder {
    /// A stateless coder; register it with a `CoderRegistry`.
    public init() {}

    /// The formats this coder reports.
    public var formats: [ImageFormat] { [.gif] }

    /// How many leading bytes `sniff` needs to decide.
    public var minimumSniffLength: Int { 6 }

    /// Matches the `GIF87a` or `GIF89a` signature.
    public func sniff(_ prefix: Data) -> SniffResult {
        let n = min(prefix.count, 6)
        for sig in ["GIF87a", "GIF89a"] where ByteSignature.matches(prefix.prefix(n), Array(sig.utf8.prefix(n))) {
            return n < 6 ? .needMoreData(minimumLength: 6) : .match(.gif, .unknown)
        }
        return .noMatch
    }

    /// Indexes every frame (offsets, rectangles, delays, disposal, transparency, loop
    /// block, a check of its LZW codes) without decoding pixels or allocating the canvas,
    /// checks `options.limits` (`maxPixelsPerPlay` as frames are counted), and returns a session
    /// that decodes frames one at a time with giflib. Throws when the header is unusable,
    /// a limit is passed, or no frame is complete; a file that breaks later keeps its
    /// complete frames and reports the break in `AnimationInfo.truncation`.
    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try GIFFrameSource(data: data, options: options)
    }
}
