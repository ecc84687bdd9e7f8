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
}
