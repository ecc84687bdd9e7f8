import Foundation
import Zoetrope

// The calls by URL alone: each is the `ImageRequest` call with the loader's
// `Configuration.decodingOptions`, normal priority and the protocol's cache policy.
extension AnimatedImageLoader {
    /// The request these calls make for `url`.
    func request(_ url: URL) -> ImageRequest {
        ImageRequest(url: url, decodingOptions: configuration.decodingOptions)
    }

    /// The decoded image for `url` if the memory cache holds it (it becomes the most
    /// recently used); never touches the disk or the network.
    public func cachedImage(for url: URL) -> AnimatedImage? {
        cachedImage(for: request(url))
    }

    /// The image at `url`, as `image(for:)` with an `ImageRequest`.
    public func image(for url: URL) async throws -> AnimatedImage {
        try await image(for: request(url))
    }

    /// The image at `url`, reporting progress, as `image(for:progress:)` with an `ImageRequest`.
    public func image(for url: URL, progress: @escaping @Sendable (LoadingProgress) -> Void) async throws -> AnimatedImage {
        try await image(for: request(url), progress: progress)
    }

    /// A player of the image at `url`, as `player(for:display:clock:configuration:)` with an
    /// `ImageRequest`.
    public func player(
        for url: URL, display: (any AnimationDisplay)?, clock: any FrameClock = TimerClock.shared,
        configuration: PlayerConfiguration = PlayerConfiguration()
    ) async throws -> AnimationPlayer {
        try await player(for: request(url), display: display, clock: clock, configuration: configuration)
    }

    /// Loads `urls` into the caches in the background, errors ignored. Cancelling the
    /// returned task cancels the loads no one else is waiting for.
    @discardableResult
    public func prefetch(_ urls: [URL]) -> Task<Void, Never> {
        prefetch(urls.map(request))
    }

    /// Forgets the decoded images for `url`, at every decoding options (the disk cache
    /// keeps its response).
    public func removeCachedImage(for url: URL) {
        context.memory.remove(url)
    }

    /// Empties the memory cache.
    public func removeAllCachedImages() {
        context.memory.removeAll()
    }

    /// The decoded images the memory cache holds and their total cost in bytes.
    public var memoryCacheUsage: (count: Int, cost: Int) {
        context.memory.usage
    }
}
