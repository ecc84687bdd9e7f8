extension ImageRequest {
    /// How urgent a request is. Waiting downloads start in priority order (then in the
    /// order they were asked for); a request joining a waiting download raises it to its
    /// own priority; decodes run at the matching task priority.
    public enum Priority: Int, Comparable, Sendable, CaseIterable {
        case veryLow, low, normal, high, veryHigh

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
