import Zoetrope

extension GIFFrameSource: ColorTransformHolding {
    /// The complete index's transform; nil while a two-step open has not completed it (this
    /// never completes it).
    var heldColorTransform: (any ColorTransform)? {
        indexing.withLock { indexing in
            if case .complete(let complete) = indexing { return complete.colorTransform }
            return nil
        }
    }
}
