/// A frame source that keeps a `ColorTransform` for its session (the built-in coders'
/// sources): `AnimatedImage.cost` counts that transform's bytes.
package protocol ColorTransformHolding {
    /// The transform the session converts frames with; nil when it converts none.
    var heldColorTransform: (any ColorTransform)? { get }
}
