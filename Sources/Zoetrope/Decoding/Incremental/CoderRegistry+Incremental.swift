#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CoderRegistry {
    /// Opens an incremental source for a stream that begins with `prefix`, with the coder
    /// its content selects (as `sniff` chooses), and appends `prefix` to it. Returns nil
    /// while the prefix is too short to choose (read more and call again with the longer
    /// prefix). Throws `.unrecognizedFormat` when no coder recognises the bytes,
    /// `.unsupported` when the coder that does cannot decode incrementally (it does not adopt
    /// `IncrementalDecoding`: read the whole file and use `makeFrameSource`), and whatever
    /// appending the prefix throws.
    public func makeIncrementalSource(prefix: Data, options: DecodingOptions = .default) throws -> (any IncrementalFrameSource)? {
        guard let (coder, result) = sniff(prefix, isComplete: false) else {
            throw AnimatedImageError.unrecognizedFormat(prefix: Array(prefix.prefix(16)))
        }
        guard case .match(let format, _) = result else { return nil }
        guard let incremental = coder as? any IncrementalDecoding else {
            throw AnimatedImageError.unsupported(format: format, feature: "incremental decoding (the coder needs the whole file)")
        }
        let source = incremental.makeIncrementalSource(options: options)
        try source.append(prefix)
        return source
    }
}
