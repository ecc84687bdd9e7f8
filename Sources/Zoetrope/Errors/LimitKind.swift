/// Which of the `Limits` a decoder hit.
public enum LimitKind: String, Hashable, Sendable {
    /// `Limits.maxWidth`: the canvas or a frame is too wide.
    case width = "maxWidth"
    /// `Limits.maxHeight`: the canvas or a frame is too tall.
    case height = "maxHeight"
    /// `Limits.maxCanvasPixels`: width × height is too many pixels.
    case canvasPixels = "maxCanvasPixels"
    /// `Limits.maxFrameCount`: the file has too many frames.
    case frameCount = "maxFrameCount"
    /// `Limits.maxAllocationBytes`: decoding would hold too many bytes.
    case allocationBytes = "maxAllocationBytes"
    /// `Limits.maxPixelsPerPlay`: frames × canvas pixels is more work than allowed.
    case pixelsPerPlay = "maxPixelsPerPlay"
}
