/// Converts decoded pixel values from the colour space a file declares to the one frames are
/// delivered in (sRGB), in place.
///
/// A coder does not call it per pixel: it hands one to its `Compositor`
/// (`Compositor.colorTransform`), and every frame the compositor or `CanvasRendering`
/// delivers passes through it once, after any `DecodingOptions.targetSize` downsampling and
/// before premultiplying. A file that declares sRGB or nothing has no transform and costs
/// nothing. A class, so that holding one keeps a decode state a plain (loadable) value.
/// The `ZoetropeColor` module makes transforms with lcms2
/// (`ColorManagement.prepare(_:options:precedence:)`).
public protocol ColorTransform: AnyObject, Sendable {
    /// Converts `height` rows of `width` straight-alpha RGBA8 pixels, the rows `bytesPerRow`
    /// apart starting at `pixels`, in place. Alpha is left as it is. May be called from any
    /// thread, by several at once.
    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int)
}
