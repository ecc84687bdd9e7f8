extension IncrementalSnapshot {
    /// Why frame `index` cannot be decoded from a source in this state: not arrived yet
    /// while more may come (`.frameNotYetAvailable`); else what a whole-file source says
    /// (the session's failure, the truncation, or `.frameOutOfRange`).
    package static func unavailableError(_ index: Int, in snapshot: IncrementalSnapshot) -> AnimatedImageError {
        switch snapshot.state {
        case .receiving where index >= 0:
            return .frameNotYetAvailable(index: index, availableFrames: snapshot.frameCount)
        case .failed(let error) where index >= snapshot.frameCount:
            return error
        default:
            if index >= snapshot.frameCount, let truncation = snapshot.truncation { return truncation }
            return .frameOutOfRange(index: index, frameCount: snapshot.frameCount)
        }
    }
}
