import Zoetrope

extension WebPFrameSource: ColorTransformHolding {
    var heldColorTransform: (any ColorTransform)? { colorTransform }
}
