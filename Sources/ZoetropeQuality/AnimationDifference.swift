import Zoetrope

/// One way two compared animations differ (`AnimationComparison.differences(tolerance:)`).
public enum AnimationDifference: Hashable, Sendable, CustomStringConvertible {
    /// The canvases differ in size (first, second); no pixel is compared.
    case canvasSize(PixelSize, PixelSize)
    /// The frame counts differ (first, second); the frames both have are compared.
    case frameCount(Int, Int)
    /// The total plays differ (first, second).
    case plays(LoopCount, LoopCount)
    /// The raw durations of these frames differ.
    case durations(frames: [Int])
    /// The displayed durations of these frames differ (after the delay policy).
    case displayedDurations(frames: [Int])
    /// These frames' pixels differ by more than `tolerance` in some channel; `maxChannelDifference` is the largest.
    case pixels(frames: [Int], maxChannelDifference: Int, tolerance: Int)

    /// One line naming what differs.
    public var description: String {
        switch self {
        case .canvasSize(let a, let b): "canvas \(a) vs \(b)"
        case .frameCount(let a, let b): "frame count \(a) vs \(b)"
        case .plays(let a, let b): "plays \(a) vs \(b)"
        case .durations(let frames): "durations of \(Self.list(frames))"
        case .displayedDurations(let frames): "displayed durations of \(Self.list(frames))"
        case .pixels(let frames, let d, let tolerance):
            "pixels of \(Self.list(frames)) (max channel difference \(d), tolerance \(tolerance))"
        }
    }

    /// "frame 3", "frames 1, 4, 7", "frames 1, 2, 3, … (40 frames)".
    static func list(_ frames: [Int]) -> String {
        if frames.count == 1 { return "frame \(frames[0])" }
        let shown = frames.prefix(8).map(String.init).joined(separator: ", ")
        return frames.count > 8 ? "frames \(shown), … (\(frames.count) frames)" : "frames \(shown)"
    }
}
