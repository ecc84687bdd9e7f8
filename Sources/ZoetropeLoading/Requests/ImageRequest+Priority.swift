extension ImageRequest {
    /// How urgent a request is. Waiting downloads start in priority order (then in the
    /// order they were asked for); a request joining a waiting download raises it to its
    /// own priority, and `AnimatedImageLoader.setPriority(_:for:)` moves it either way while
    /// it waits or runs; decodes run at the matching task priority.
    public enum Priority: Int, Comparable, Sendable, CaseIterable {
        /// Last of all: prefetching far ahead.
        case veryLow
        /// Behind what is on screen: prefetching.
        case low
        /// What a view asks for by default.
        case normal
        /// Before the rest: a view about to be seen.
        case high
        /// First of all.
        case veryHigh

        /// Whether `a` is less urgent than `b`.
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

        /// The task priority decodes run at.
        var taskPriority: TaskPriority {
            switch self {
            case .veryLow, .low: .low
            case .normal: .medium
            case .high, .veryHigh: .high
            }
        }

        /// `URLSessionTask.priority` (0…1).
        var sessionPriority: Float { Float(rawValue) / Float(Priority.veryHigh.rawValue) }
    }
}
