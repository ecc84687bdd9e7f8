/// A source whose every decode throws the error that kept the real one from being made
/// (`AnimationPlayer(image:)` cannot throw, so the player reports it as a failed decode).
final class FailedFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    private let error: AnimatedImageError

    init(info: AnimationInfo, options: DecodingOptions, error: any Error) {
        self.info = info
        self.options = options
        self.error =
            error as? AnimatedImageError
            ?? .codecFailure(format: info.format, library: "FrameSource", message: "\(error)")
    }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws { throw error }
    var retainedByteCount: Int { 0 }
}
