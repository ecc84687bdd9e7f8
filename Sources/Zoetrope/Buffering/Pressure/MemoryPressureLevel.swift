/// How hard the system is pressed for memory.
public enum MemoryPressureLevel: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Nothing to do.
    case normal
    /// Players drop to two frames.
    case warning
    /// Players drop to two frames and free idle buffers.
    case critical

    /// Normal < warning < critical.
    public static func < (a: MemoryPressureLevel, b: MemoryPressureLevel) -> Bool { a.rawValue < b.rawValue }

    /// "normal", "warning" or "critical".
    public var description: String {
        switch self {
        case .normal: "normal"
        case .warning: "warning"
        case .critical: "critical"
        }
    }
}
