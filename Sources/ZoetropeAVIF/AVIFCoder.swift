import CAVIF
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes AVIF stills and image sequences over libavif (0.11 on Debian 12).
///
/// A file with an image sequence plays the sequence, even when it also has a still primary
/// item; a still-only file is a one-frame image. Frames are 8-bit RGBA whatever the
/// source depth (8, 10, 12 bits), converted with the range and matrix the file declares.
/// Durations are exact fractions of the media timescale; the loop count comes from the
/// colour track's edit list, which Zoetrope reads itself.
///
/// Where libavif 0.11 lags current libavif, Zoetrope checks the container first: a track
/// other than the colour track and its alpha track (audio, depth) is hidden from libavif,
/// and an `iref` naming item ID 0 is rejected.
public struct AVIFCoder: AnimatedImageCoder {
    /// A stateless coder; register it with a `CoderRegistry`.
    public init() {}

    /// The formats this coder reports.
    public var formats: [ImageFormat] { [.avif] }

    /// ISOBMFF brands can sit anywhere in the `ftyp` box; 144 bytes covers real files.
    public var minimumSniffLength: Int { 144 }

    /// An ISOBMFF `ftyp` box whose major or compatible brands include `avis` (a sequence)
    /// or `avif` (a still).
    public func sniff(_ prefix: Data) -> SniffResult {
        let n = prefix.count
        if n < 8 {
            if n > 4, !ByteSignature.matches(prefix, Array("ftyp".utf8.prefix(n - 4)), at: 4) { return .noMatch }
            return .needMoreData(minimumLength: 16)
        }
        guard ByteSignature.matches(prefix, ascii: "ftyp", at: 4), let size32 = ByteSignature.uint32BE(prefix, at: 0) else {
            return .noMatch
        }
        let size = Int(size32)
        guard size >= 16, size <= 4096, size % 4 == 0 else { return .noMatch }
        guard n >= size else { return .needMoreData(minimumLength: size) }
        var brands = [ByteSignature.fourCC(prefix, at: 8)!]
        var o = 16
        while o + 4 <= size {
            brands.append(ByteSignature.fourCC(prefix, at: o)!)
            o += 4
        }
        if brands.contains("avis") { return .match(.avif, .animated) }
        if brands.contains("avif") { return .match(.avif, .still) }
        return .noMatch
    }

    /// Parses the container and returns a session that decodes frames with libavif.
    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try makeAVIFFrameSource(data: data, options: options)
    }
}
