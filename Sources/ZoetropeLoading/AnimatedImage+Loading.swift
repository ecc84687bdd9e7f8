import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The loading members that need full Foundation: `Bundle` for resources, the loader (on
// Linux with libcurl) for http(s). They live here, not in the core,
// so that a process linking only the core and the codec modules does not load Foundation,
// ICU and libcurl (Docs/Benchmarks.md, "The process floor").
extension AnimatedImage {
    /// Opens the resource `name` in `bundle`, trying each file extension of the formats
    /// `registry` knows (`registry.fileExtensions`: `gif`, `png`, `apng`, `webp`, `avif`,
    /// `avifs`, `jpg`, `jpeg`, `jpe`, `jfif`, `jif` with the built-in coders). A name that already ends in an extension
    /// (`"spinner.gif"`) is looked up as given first.
    ///
    /// Throws `AnimatedImageError.resourceNotFound` listing the extensions tried when no
    /// resource matches, and the errors of `init(contentsOf:registry:options:)` otherwise.
    ///
    /// Declared in `ZoetropeCodecs`, not in the core: `Bundle` needs full Foundation.
    public init(
        named name: String, in bundle: Bundle = .main, registry: CoderRegistry = .shared,
        options: DecodingOptions = .default
    ) throws(AnimatedImageError) {
        let extensions = registry.fileExtensions
        guard let url = Self.resourceURL(named: name, in: bundle, extensions: extensions) else {
            throw AnimatedImageError.resourceNotFound(name: name, bundlePath: bundle.bundlePath, triedExtensions: extensions)
        }
        try self.init(contentsOf: url, registry: registry, options: options)
    }

    /// Reads the image at `url` and decodes its header and poster.
    ///
    /// A file URL is memory-mapped, as in `init(contentsOf:registry:options:)`; a `data:`
    /// URL is decoded from its own bytes. An http(s)
    /// URL is fetched through an `AnimatedImageLoader` that caches nothing, with the
    /// loader's bounds and errors: at most `maximumResponseBytes` (64 MiB), a 30 s
    /// inactivity timeout, a 300 s deadline, `AnimatedImageError.httpStatus` for a status
    /// outside 200–299 (see `AnimatedImageLoader.Configuration`). For other bounds, or
    /// caching, use a loader of your own. Decoding runs off the caller's actor.
    ///
    /// **Errors.** `AnimatedImageError` for everything about the image and the transfer, and
    /// `CancellationError` when the calling task is cancelled: before the read, during the
    /// download (which is abandoned), or once the bytes are in or decoded. That is why this
    /// method throws untyped errors where the synchronous initialisers throw
    /// `AnimatedImageError` only; catch `CancellationError` first.
    ///
    /// Declared in `ZoetropeLoading`, not in the core: the loader needs full Foundation
    /// (and on Linux libcurl). With the core alone, open files
    /// with `init(contentsOf:registry:options:)`, or fetch the bytes yourself and use
    /// `init(data:registry:options:)`.
    public static func load(
        from url: URL, registry: CoderRegistry = .shared,
        options: DecodingOptions = .default
    ) async throws -> AnimatedImage {
        try Task.checkCancellation()
        if url.isFileURL {
            let data = try fileData(contentsOf: url)
            try Task.checkCancellation()
            return try AnimatedImage(data: data, registry: registry, options: options)
        }
        let scheme = url.scheme?.lowercased()
        if scheme == "data" {
            // The bytes are in the URL itself: no transfer to bound.
            guard let data = DataURL.bytes(of: url.absoluteString) else {
                throw AnimatedImageError.unreadable(location: String(url.absoluteString.prefix(64)), reason: "not a readable data URL")
            }
            return try await Task.detached { try AnimatedImage(data: data, registry: registry, options: options) }.value
        }
        guard scheme == "http" || scheme == "https" else {
            throw AnimatedImageError.unreadable(location: url.absoluteString, reason: "only file, data, http and https URLs can be loaded")
        }
        let loader = AnimatedImageLoader(
            configuration: .init(
                memoryCacheLimit: 0, diskCache: nil, memoryCacheCountLimit: 0, registry: registry, decodingOptions: options,
                memoryPressure: nil))
        let image = try await loader.image(for: url)
        try Task.checkCancellation()
        return image
    }

    private static func resourceURL(named name: String, in bundle: Bundle, extensions: [String]) -> URL? {
        let candidates =
            [bundle.url(forResource: name, withExtension: nil)]
            + extensions.map { bundle.url(forResource: name, withExtension: $0) }
        return candidates.lazy.compactMap { $0 }.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
