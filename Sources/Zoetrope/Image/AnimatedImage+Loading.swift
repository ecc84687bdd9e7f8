#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Bundle resources (`init(named:in:registry:options:)`) and URLs other than files
// (`load(from:registry:options:)`) are ZoetropeCodecs' business: they need full Foundation and
// FoundationNetworking, which the core leaves out so that a process using it stays small.

extension AnimatedImage {
    /// Opens the image in a file. The file is memory-mapped, not copied: opening a
    /// 200 MB animation costs its index and poster, not 200 MB of reads.
    ///
    /// The format comes from the content, never from the file name. Throws
    /// `AnimatedImageError.unreadable` naming the path when the file is missing, a
    /// directory or unreadable, and the decoding errors of `init(data:registry:options:)`.
    public init(contentsOf url: URL, registry: CoderRegistry = .shared, options: DecodingOptions = .default) throws(AnimatedImageError) {
        try self.init(data: Self.fileData(contentsOf: url), registry: registry, options: options)
    }

    /// The bytes of the file at `url`, memory-mapped rather than copied: what
    /// `init(contentsOf:registry:options:)` reads. Throws `AnimatedImageError.unreadable`
    /// naming the path: no such file, is a directory, not a file URL, or why it could not be read.
    public static func fileData(contentsOf url: URL) throws(AnimatedImageError) -> Data {
        guard url.isFileURL else {
            throw .unreadable(location: url.absoluteString, reason: "not a file URL (AnimatedImage.load(from:) reads other URLs)")
        }
        return try MappedFile.read(path: url.path)
    }
}
