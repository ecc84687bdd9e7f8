import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads animated (and still) images from URLs for views: one download per URL however
/// many ask, a memory cache of decoded images, a disk cache of responses that honours HTTP
/// caching, and players that start while the bytes still arrive.
///
/// ```swift
/// let image = try await AnimatedImageLoader.shared.image(for: url)
/// view.player = try await AnimatedImageLoader.shared.player(for: url, display: view)
/// view.player?.play()
/// ```
///
/// - Concurrent requests for one URL join the download in flight; each can be cancelled
///   on its own (it throws `CancellationError`), and the download stops only when no
///   request (and no player made from it) is left.
/// - Decoded images stay in memory up to a total `AnimatedImage.cost` and a count, least
///   recently used evicted first, all of them dropped when `Configuration.memoryPressure`
///   reaches `.warning`.
/// - Responses stay on disk (`DiskCache`) as long as `Cache-Control`/`Expires` allow and
///   are revalidated with `ETag`/`Last-Modified` when stale; a fresh entry costs no request.
/// - The response size is checked against `DecodingOptions.limits.maxAllocationBytes` as
///   it arrives. Every failure is an `AnimatedImageError` (`httpStatus`,
///   `truncatedResponse`, `responseTooLarge`, `timedOut`, `tooManyRedirects`,
///   `unreadable`, or a decoding error) except cancellation.
///
/// File URLs are read directly (memory-mapped) and kept in the memory cache only.
public final class AnimatedImageLoader: Sendable {
    /// A loader with `Configuration.standard`, for an application that needs one.
    public static let shared = AnimatedImageLoader(configuration: .standard)

    /// The configuration the loader was made with.
    public let configuration: Configuration
    /// The disk cache, when the configuration has one.
    public let diskCache: DiskCache?
    private let context: LoaderContext
    private let pressureObservation: Observation?

    /// A loader with its own caches and network session.
    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
        let memory = ImageMemoryCache(
            costLimit: configuration.memoryCacheLimit,
            countLimit: configuration.memoryCacheCountLimit)
        diskCache = configuration.diskCache.map(DiskCache.init(configuration:))
        context = LoaderContext(
            memory: memory, disk: diskCache, registry: configuration.registry,
            options: configuration.decodingOptions, timeout: configuration.timeout,
            maximumRedirects: max(0, configuration.maximumRedirects),
            network: LoaderNetwork(timeout: configuration.timeout), inFlight: Locked([:]))
        pressureObservation = configuration.memoryPressure?.observe { level in
            if level >= .warning { memory.removeAll() }
        }
    }

    /// The decoded image for `url` if the memory cache holds it (it becomes the most
    /// recently used); never touches the disk or the network.
    public func cachedImage(for url: URL) -> AnimatedImage? {
        context.memory.image(for: url)
    }

    /// The image at `url`: from the memory cache, the disk cache (fresh, or revalidated
    /// with the server), or the network, decoded off the caller's actor. Requests for a URL
    /// already loading share that load. Throws `CancellationError` when the calling task is
    /// cancelled, and an `AnimatedImageError` for every failure.
    public func image(for url: URL) async throws -> AnimatedImage {
        if let image = context.memory.image(for: url) { return image }
        guard let (download, token) = join(url) else {
            if let image = context.memory.image(for: url) { return image }
            return try await image(for: url)
        }
        return try await download.image(token: token)
    }

    /// The image at `url`, as `image(for:)`, calling `progress` (on the download's thread)
    /// each time more of the body arrives. Nothing is reported for an image from the memory
    /// or disk cache; a request joining a download in flight hears from then on.
    public func image(for url: URL, progress: @escaping @Sendable (LoadingProgress) -> Void) async throws -> AnimatedImage {
        if let image = context.memory.image(for: url) { return image }
        guard let (download, token) = join(url) else {
            return try await image(for: url, progress: progress)
        }
        download.observeProgress(token: token, progress)
        return try await download.image(token: token)
    }

    /// A player of the image at `url`, showing on `display`, handed back as soon as the
    /// first frame's bytes are in: it plays the frames as they arrive, in order, and loops
    /// only once the whole file is in (see `AnimationPlayer.init(incrementalSource:)`).
    /// From a cache, or for a format that cannot be decoded while it arrives, it is a
    /// player of the whole image. The download goes on while the player is alive (or a
    /// request waits for the URL); the finished bytes go to both caches.
    public func player(
        for url: URL, display: (any AnimationDisplay)?, clock: any FrameClock = TimerClock.shared,
        configuration: PlayerConfiguration = PlayerConfiguration()
    ) async throws -> AnimationPlayer {
        if let image = context.memory.image(for: url) {
            return AnimationPlayer(image: image, display: display, clock: clock, configuration: configuration)
        }
        guard let (download, token) = join(url) else {
            return try await player(for: url, display: display, clock: clock, configuration: configuration)
        }
        switch try await download.source(token: token) {
        case .image(let image):
            return AnimationPlayer(image: image, display: display, clock: clock, configuration: configuration)
        case .stream(let session):
            let player = AnimationPlayer(
                incrementalSource: session, clock: clock, display: display,
                configuration: configuration)
            download.adopt(player)
            return player
        }
    }

    /// The image at `url` as `image(for:)` loads it, bypassing the memory cache, with its
    /// encoded bytes handed to `received` as they arrive (from the disk cache in one
    /// piece). For the `zoetrope` tool, which streams them to its decoders; `received` runs
    /// under the download's lock and must not call the loader.
    package func image(for url: URL, received: @escaping @Sendable (Data) -> Void) async throws -> AnimatedImage {
        context.memory.remove(url)
        guard let (download, token) = join(url, observer: received) else {
            return try await image(for: url, received: received)
        }
        return try await download.image(token: token)
    }

    /// Loads `urls` into the caches in the background, errors ignored. Cancelling the
    /// returned task cancels the loads no one else is waiting for.
    @discardableResult
    public func prefetch(_ urls: [URL]) -> Task<Void, Never> {
        Task.detached { [self] in
            await withTaskGroup(of: Void.self) { group in
                for url in urls {
                    group.addTask { _ = try? await self.image(for: url) }
                }
            }
        }
    }

    /// Forgets the decoded image for `url` (the disk cache keeps its response).
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

    /// The download in flight for `url`, joined, or a new one started; nil when the
    /// memory cache holds the image (a download finished since the caller looked).
    /// `observer`, when given, is handed the body (`LoaderDownload.observeBody`) before the
    /// fetch starts.
    private func join(_ url: URL, observer: (@Sendable (Data) -> Void)? = nil) -> (LoaderDownload, Int)? {
        let joined = context.inFlight.withLock { table -> (LoaderDownload, Int, Bool)? in
            if let running = table[url], let token = running.join() {
                if let observer { running.observeBody(observer) }
                return (running, token, false)
            }
            if context.memory.contains(url) { return nil }
            let download = LoaderDownload(url: url, context: context)
            if let observer { download.observeBody(observer) }
            table[url] = download
            return download.join().map { (download, $0, true) }
        }
        guard let (download, token, isNew) = joined else { return nil }
        if isNew { download.start() }
        return (download, token)
    }
}
