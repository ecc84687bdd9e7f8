/// A handle for one registration, used to unregister it.
public struct CoderRegistration: Hashable, Sendable {
    let id: UInt64
}
