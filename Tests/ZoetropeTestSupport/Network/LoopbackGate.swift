import Zoetrope

/// A switch a test opens to let a held response go on (`LoopbackHTTPResponse.holdAfter`).
public final class LoopbackGate: Sendable {
    private let isOpenState = Locked(false)

    /// A closed gate.
    public init() {}

    /// Lets every response held at this gate go on.
    public func open() { isOpenState.withLock { $0 = true } }

    /// Whether `open()` was called.
    public var isOpen: Bool { isOpenState.withLock { $0 } }
}
