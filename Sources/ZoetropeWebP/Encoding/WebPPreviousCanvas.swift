import Zoetrope

/// The canvas a decoder shows before the frame being encoded: `canvas`, with `cleared`
/// (the previous frame's rectangle, when it is disposed to the background) transparent black.
struct WebPPreviousCanvas {
    let canvas: WebPCanvas
    let cleared: PixelRect?

    @inline(__always) func pixel(_ x: Int, _ y: Int) -> UInt32 {
        if let c = cleared, x >= c.x, x < c.x + c.width, y >= c.y, y < c.y + c.height { return 0 }
        return canvas.pixels[y * canvas.width + x]
    }

    /// Row `y` of the canvas when nothing is cleared, for loops that read it pixel after
    /// pixel without the cleared-rectangle test; nil when a rectangle is cleared.
    @inline(__always) func plainRow(_ y: Int) -> UnsafePointer<UInt32>? {
        cleared == nil ? UnsafePointer(canvas.pixels + y * canvas.width) : nil
    }
}
