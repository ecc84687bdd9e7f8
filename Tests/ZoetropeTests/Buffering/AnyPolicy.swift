import Testing

@testable import Zoetrope

/// A policy wrapped for test arguments.
struct AnyPolicy: Sendable, CustomTestStringConvertible {
    let policy: any FrameBufferPolicy
    init(_ policy: any FrameBufferPolicy) { self.policy = policy }
    var testDescription: String { policy.name }
}
