import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The loading members that need full Foundation: `Bundle` for resources, `URLSession` (on
// Linux FoundationNetworking, with libcurl) for http(s). They live here, not in the core,
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

    /// Reads the image at any URL Foundation can read and decodes its header and poster.
    ///
    /// A file URL is memory-mapped, as in `init(contentsOf:registry:options:)`. Other URLs
    /// (`http`, `https`, `data`, ...) are fetched with `URLSession.shared` where the
    /// platform has it (on Linux through FoundationNetworking); an HTTP status outside
    /// 200–299 throws `AnimatedImageError.unreadable` with the status, as does a failed
    /// transfer (with the system's reason). Decoding runs off the caller's actor.
    ///
    /// **Errors.** `AnimatedImageError` for everything about the image and the transfer, and
    /// `CancellationError` when the calling task is cancelled: before the read, during the
    /// download (which is abandoned), or once the bytes are in or decoded. That is why this
    /// method throws untyped errors where the synchronous initialisers throw
    /// `AnimatedImageError` only; catch `CancellationError` first.
    ///
    /// Declared in `ZoetropeCodecs`, not in the core: `URLSession` needs full Foundation
    /// (and on Linux FoundationNetworking with libcurl). With the core alone, open files
    /// with `init(contentsOf:registry:options:)`, or fetch the bytes yourself and use
    /// `init(data:registry:options:)`.
    public static func load(
        from url: URL, registry: CoderRegistry = .shared,
        options: DecodingOptions = .default
    ) async throws -> AnimatedImage {
        try Task.checkCancellation()
        let data = url.isFileURL ? try fileData(contentsOf: url) : try await fetch(url)
        try Task.checkCancellation()
        let image = try AnimatedImage(data: data, registry: registry, options: options)
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

    /// The bytes at `url`; `CancellationError` when the task is cancelled meanwhile (the
    /// transfer reports that as a failure of its own, `URLError.cancelled`).
    private static func fetch(_ url: URL) async throws -> Data {
        #if canImport(FoundationNetworking) || canImport(Darwin)
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(from: url)
        } catch {
            if Task.isCancelled || error is CancellationError || (error as? URLError)?.code == .cancelled {
                throw CancellationError()
            }
            throw AnimatedImageError.unreadable(location: url.absoluteString, reason: error.localizedDescription)
        }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw AnimatedImageError.unreadable(location: url.absoluteString, reason: "HTTP status \(http.statusCode)")
        }
        return data
        #else
        do {
            return try Data(contentsOf: url)
        } catch {
            throw AnimatedImageError.unreadable(location: url.absoluteString, reason: error.localizedDescription)
        }
        #endif
    }
}
