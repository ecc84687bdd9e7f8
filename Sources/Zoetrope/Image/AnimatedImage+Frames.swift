extension AnimatedImage {
    /// Every frame in order as an `AsyncSequence`, decoded lazily, one at a time:
    ///
    /// ```swift
    /// for try await frame in image.frames() {
    ///     print(frame.index, frame.duration, frame.pixels.size)
    /// }
    /// ```
    ///
    /// Each element owns its pixels. `duration` is the stored duration after
    /// `delayPolicy`. Cancelling the consuming task stops decoding; errors are
    /// `AnimatedImageError`s thrown after the frames that decoded (see `AnimatedImageFrames`).
    public func frames(delayPolicy: DelayPolicy = .default) -> AnimatedImageFrames {
        AnimatedImageFrames(image: self, delayPolicy: delayPolicy)
    }
}
