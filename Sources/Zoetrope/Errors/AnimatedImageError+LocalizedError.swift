#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AnimatedImageError: LocalizedError {
    /// The same one line as `description`, so `error.localizedDescription` reads
    /// "gif: truncated after 3 complete frames: …" rather than a generic
    /// "The operation could not be completed".
    public var errorDescription: String? { description }
}
