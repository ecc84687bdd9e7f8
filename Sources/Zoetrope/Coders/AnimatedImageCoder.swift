#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoder for one or more image formats, registered with a `CoderRegistry`.
///
/// Conform to add a format: say how many leading bytes identify it, recognise them, and
/// make a `FrameSource`. Coders are values shared across threads, so keep them stateless.
public protocol AnimatedImageCoder: Sendable {
    /// The formats this coder can produce in `sniff` and `AnimationInfo.format`.
    var formats: [ImageFormat] { get }
    /// How many leading bytes `sniff` needs to decide in the usual case.
    var minimumSniffLength: Int { get }
    /// Recognises the format from the first bytes of the data (possibly all of it).
    func sniff(_ prefix: Data) -> SniffResult
    /// Starts a decoding session. Reads the header and indexes frames as needed to fill
    /// `AnimationInfo`; checks `options.limits` before allocating.
    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource
}
