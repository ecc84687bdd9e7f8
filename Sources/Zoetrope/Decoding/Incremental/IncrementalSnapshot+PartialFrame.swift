extension IncrementalSnapshot {
    /// Counts frame 0 while it arrives (`DecodingOptions.showsPartialFirstFrame`), lasting
    /// `duration`: the only frame so far, with transparency where it has not arrived.
    package mutating func showPartialFirstFrame(lasting duration: FrameDuration) {
        frameDurations = [duration]
        firstFrameIsPartial = true
        hasAlpha = true
    }

    /// Frame 0 is no longer partial: the frames are counted again as they complete. Returns
    /// whether it was.
    @discardableResult
    package mutating func endPartialFirstFrame() -> Bool {
        guard firstFrameIsPartial else { return false }
        frameDurations = []
        firstFrameIsPartial = false
        return true
    }
}
