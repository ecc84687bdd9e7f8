import Zoetrope

extension JPEGFrameSource: ColorTransformHolding {
    var heldColorTransform: (any ColorTransform)? { colorTransform }
}
