/// Which of the `Limits` a decoder hit.
public enum LimitKind: String, Hashable, Sendable {
    case width = "maxWidth"
    case height = "maxHeight"
    case canvasPixels = "maxCanvasPixels"
    case frameCount = "maxFrameCount"
    case allocationBytes = "maxAllocationBytes"
}
