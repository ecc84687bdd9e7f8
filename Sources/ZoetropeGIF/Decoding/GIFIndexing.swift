import Zoetrope
import ZoetropeColor

/// Where a `GIFFrameSource`'s index stands: walked (frame 0 decodes, the frame count waits
/// for the remaining scans) or complete.
enum GIFIndexing: Sendable {
    /// The final index with what the source derives from it once.
    struct Complete: Sendable {
        let index: GIFIndex
        let info: AnimationInfo
        let largestImagePixels: Int
        /// The conversion of the colour `info` declares to sRGB (`ColorManagement.prepare`).
        let colorTransform: (any ColorTransform)?

        init(_ index: GIFIndex, options: DecodingOptions = .default) {
            self.index = index
            var info = AnimationInfo(
                format: .gif, canvasSize: index.canvasSize, frameDurations: index.frames.map(\.duration),
                loopCount: index.loopCount, storedLoopValue: index.storedLoopCount,
                hasAlpha: index.hasAlpha, truncation: index.truncation, warnings: index.warnings,
                color: ColorInfo(iccProfile: index.iccProfile))
            colorTransform = ColorManagement.prepare(&info, options: options)
            self.info = info
            largestImagePixels = index.frames.lazy.map { $0.rect.width * $0.rect.height }.max() ?? 0
        }
    }

    case walked(GIFProvisionalIndex)
    case complete(Complete)

    /// The walk's frame records while the index is not complete.
    var walkedFrames: [GIFFrameRecord]? {
        if case .walked(let provisional) = self { return provisional.index.frames }
        return nil
    }

    /// The only frame, cut inside its data (`GIFIndex.partialFirstFrameEnd`); never for a
    /// walked index (those end with their trailer).
    var partialFirstFrame: (record: GIFFrameRecord, dataEnd: Int)? {
        guard case .complete(let complete) = self, let end = complete.index.partialFirstFrameEnd else { return nil }
        return (complete.index.frames[0], end)
    }

    /// Frame records held, for `retainedByteCount`.
    var frameCapacity: Int {
        switch self {
        case .walked(let provisional): provisional.index.frames.capacity
        case .complete(let complete): complete.index.frames.capacity
        }
    }
}
