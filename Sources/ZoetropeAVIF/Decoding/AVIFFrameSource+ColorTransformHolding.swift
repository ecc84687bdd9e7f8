import Zoetrope

extension AVIFFrameSource: ColorTransformHolding {
    var heldColorTransform: (any ColorTransform)? { session.withLock { $0.colorTransform } }
}
