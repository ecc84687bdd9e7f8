import Foundation
import Zoetrope

extension WebPCoder {
    /// The frames a `FrameSource` for `data` restarts from when seeking: those whose
    /// canvas depends on no earlier frame, ascending (always starting with 0). Seeking to
    /// frame *i* decodes the frames from the last of these at or before *i* (or from the
    /// frame already on the canvas when that is nearer).
    public func keyFrameIndices(in data: Data, limits: Limits = .default) throws -> [Int] {
        let frames = try WebPFrameIndex(data: data, limits: limits).frames
        return frames.indices.filter { frames[$0].isKeyFrame }
    }
}
