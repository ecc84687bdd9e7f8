import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WebPCoder {
    /// The frames a `FrameSource` for `data` restarts from when seeking: those whose
    /// canvas depends on no earlier frame, ascending (always starting with 0). Seeking to
    /// frame *i* decodes the frames from the last of these at or before *i* (or from the
    /// frame already on the canvas when that is nearer). The rule is libwebp's, through
    /// Zoetrope's shared `KeyFrameTable`.
    public func keyFrameIndices(in data: Data, limits: Limits = .default) throws -> [Int] {
        try WebPIndex(data: data, limits: limits).keyFrames.keyFrameIndices
    }
}
