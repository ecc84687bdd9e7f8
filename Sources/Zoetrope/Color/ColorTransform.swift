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

    /// `convert` for RGBA16 pixels (`UInt16` channels in the machine's byte order). The
    /// default rounds each pixel to 8 bits, converts it and widens the result, so it loses
    /// depth: a transform that can convert 16-bit values (lcms2's can) implements this.
    func convert16(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int)

    /// Bytes the transform holds (its tables), counted in the cost of an image that keeps it
    /// (`AnimatedImage.cost`). The default is 0.
    var retainedByteCount: Int { get }
}

extension ColorTransform {
    public var retainedByteCount: Int { 0 }

    public func convert16(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        var row = [UInt8](repeating: 0, count: width * 4)
        for y in 0..<height {
            let p = (pixels + y * bytesPerRow).assumingMemoryBound(to: UInt16.self)
            for i in 0..<width * 4 { row[i] = PixelBuffer.narrow(p[i]) }
            row.withUnsafeMutableBytes { convert($0.baseAddress!, width: width, height: 1, bytesPerRow: width * 4) }
            // Alpha is left as it was: only the colour channels came back through 8 bits.
            for i in 0..<width * 4 where i % 4 != 3 { p[i] = UInt16(row[i]) &* 257 }
        }
    }
}
