import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APNGCoder {
    /// Why a PNG's animation chunks were ignored, or nil when there are none or they are
    /// valid. A file whose acTL/fcTL/fdAT chunks break the APNG rules decodes as its still
    /// image (format `.png`), as browsers show it; this says what was wrong, for example
    /// "fdAT sequence number 4, expected 3". Reads chunk headers only.
    public func animationProblem(in data: Data, limits: Limits = .default) throws -> String? {
        try data.withUnsafeBytes { raw throws(AnimatedImageError) in
            try APNGChunkWalker.index(raw, limits: limits).fallbackReason
        }
    }

    /// The first frame whose image data is damaged (a data chunk whose CRC does not match,
    /// which decoding refuses), with what is wrong, or nil. Unlike opening, which checks
    /// frame 0's data only, this reads every frame's: for `zoetrope info`, so that it says
    /// why `frames` writes fewer frames than it counts.
    package func firstDamagedFrame(in data: Data, limits: Limits = .default) throws -> (index: Int, reason: String)? {
        try data.withUnsafeBytes { raw throws(AnimatedImageError) in
            let index = try APNGChunkWalker.index(raw, limits: limits)
            for (i, frame) in index.frames.enumerated() {
                for c in frame.chunks where c.idatCRC(data: UnsafeRawBufferPointer(rebasing: raw[c.range])) == nil {
                    return (i, "\(frame.usesIDAT ? "IDAT" : "fdAT") CRC mismatch")
                }
            }
            return nil
        }
    }
}
