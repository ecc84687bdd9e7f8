/// A `FrameSource` over the frames an incremental session had complete when the view was
/// made: its info is frozen then, and it decodes through the session.
final class IncrementalFrameSourceView: FrameSource {
    let session: any IncrementalFrameSource
    let info: AnimationInfo

    init(session: any IncrementalFrameSource, info: AnimationInfo) {
        self.session = session
        self.info = info
    }

    var options: DecodingOptions { session.options }

    var retainedByteCount: Int { session.retainedByteCount }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        try session.decodeFrame(at: index, into: &buffer)
    }
}
