import Zoetrope

extension APNGFrameSource: ColorTransformHolding {
    var heldColorTransform: (any ColorTransform)? { colorTransform }
}
