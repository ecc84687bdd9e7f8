import Zoetrope

/// What `APNGDecodeState` draws frames with: the whole-file `APNGFrameSource`, or an
/// `APNGFrameDrawer` over the bytes an incremental source has received.
protocol APNGFrameDrawing {
    /// Decodes frame `i` and composites it onto the canvas of `state`.
    func draw(_ i: Int, state: inout APNGDecodeState) throws
    /// Decodes frame `i`, whose rectangle is the canvas, straight into `pixels`.
    func decodeFull(_ i: Int, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int, stream: inout PNGFrameStream) throws
    /// Says that frame `i` failed.
    func frameError(_ error: any Error, frame i: Int) -> any Error
}
