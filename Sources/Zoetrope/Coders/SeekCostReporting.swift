/// A source that says what its seeks cost: how many frames it has decoded so far, and
/// where decoding restarts to reach a frame. Shared inside the package only, for the
/// `FrameSource` contract checker in the tests, which holds every codec to the promise
/// that a seek costs no more than the frames since the restart point.
package protocol SeekCostReporting: FrameSource {
    /// Frames decoded (drawn onto the canvas, or straight into a caller's buffer) since the
    /// source was made.
    var decodedFrameCount: Int { get }
    /// The nearest frame at or before `index` that decoding can start from with no
    /// predecessor: a seek to `index` decodes at most `index − restartFrame(for: index) + 1` frames.
    func restartFrame(for index: Int) -> Int
}
