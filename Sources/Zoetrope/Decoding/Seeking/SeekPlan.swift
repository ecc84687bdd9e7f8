/// How to bring a canvas to a requested frame: which frames to draw, in order, and
/// whether to start over from a key frame.
package struct SeekPlan: Hashable, Sendable {
    /// The frames to draw, in order; empty when the canvas already shows the frame.
    package var frames: Range<Int>
    /// Drawing starts from a key frame (the canvas's current frame is abandoned) rather
    /// than continuing from the frame the canvas shows.
    package var restarts: Bool
    /// The canvas must be reset to fully transparent, with no disposal pending, before the
    /// first frame is drawn. False when continuing, or when the key frame overwrites every
    /// pixel of the canvas anyway and is not disposed to previous (which would save the
    /// canvas under it for the next frame).
    package var clearsCanvas: Bool

    /// A plan.
    package init(frames: Range<Int>, restarts: Bool, clearsCanvas: Bool) {
        self.frames = frames
        self.restarts = restarts
        self.clearsCanvas = clearsCanvas
    }

    /// How many frames the plan decodes.
    package var frameCount: Int { frames.count }
}
