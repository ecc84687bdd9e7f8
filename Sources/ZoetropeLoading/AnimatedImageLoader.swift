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
/// - What varies per view travels in an `ImageRequest`: decoding options (a thumbnail
///   size), priority, cache policy, a request modifier. Requests for one URL share one
///   download and one disk entry; the memory cache and the decodes are per URL and options.
/// - Concurrent requests join the download in flight; each can be cancelled on its own
///   (it throws `CancellationError`), and the download stops only when no request (and no
///   player made from it) is left.
/// - Decoded images stay in memory up to a total `AnimatedImage.cost` and a count, least
///   recently used evicted first, all of them dropped when `Configuration.memoryPressure`
///   reaches `.warning`.
/// - Responses stay on disk (`DiskCache`) as long as `Cache-Control`/`Expires` allow and
///   are revalidated with `ETag`/`Last-Modified` when stale; a fresh entry costs no request.
/// - Every byte from the network is bounded: `maximumResponseBytes` per response,
///   `maximumResponseBytesInFlight` for all downloads together, an inactivity `timeout`
///   and an overall `deadline`. Every failure is an `AnimatedImageError` (`httpStatus`,
///   `truncatedResponse`, `responseTooLarge`, `responseBudgetExceeded`, `noResponse`,
///   `timedOut`, `deadlineExceeded`, `tooManyRedirects`, `notCached`, `unreadable`, or a
///   decoding error) except cancellation and what a request modifier throws.
///
/// File URLs are read directly (memory-mapped) and kept in the memory cache only.
public final class AnimatedImageLoader: Sendable {
    /// A loader with `Configuration.standard`, for an application that needs one.
    public static let shared = AnimatedImageLoader(configuration: .standard)

    /// The configuration the loader was made with.
    public let configuration: Configuration
    /// The disk cache, when the configuration has one.
    public let diskCache: DiskCache?
    let context: LoaderContext
    /// The displays `load(_:into:)` serves and the players they share.
    package let views: ViewBindings
    private let pressureObservation: Observation?

    /// A loader with its own caches and network session.
    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
        let memory = ImageMemoryCache(
            costLimit: configuration.memoryCacheLimit,
            countLimit: configuration.memoryCacheCountLimit)
        diskCache = configuration.diskCache.map(DiskCache.init(configuration:))
        context = LoaderContext(
            memory: memory, disk: diskCache, configuration: configuration,
            transport: configuration.makeTransport(),
            queue: DownloadQueue(limit: configuration.maximumConcurrentDownloads),
            budget: ResponseBudget(limit: configuration.maximumResponseBytesInFlight), inFlight: Locked([:]))
        views = ViewBindings()
        pressureObservation = configuration.memoryPressure?.observe { level in
            if level >= .warning { memory.removeAll() }
        }
    }

    /// The decoded image for `request` if the memory cache holds it at the request's
    /// options (it becomes the most recently used); never touches the disk or the network.
    public func cachedImage(for request: ImageRequest) -> AnimatedImage? {
        context.memory.image(for: request.key)
    }

    /// The image `request` asks for: from the memory cache, the disk cache (fresh, or
    /// revalidated with the server), or the network, as its `cachePolicy` allows, decoded
    /// off the caller's actor at its priority. Requests for a URL already loading share
    /// that download. Throws `CancellationError` when the calling task is cancelled, and an
    /// `AnimatedImageError` for every failure.
    public func image(for request: ImageRequest) async throws -> AnimatedImage {
        if let image = try await fromCaches(request) { return image }
        guard let (download, token) = join(request) else { return try await image(for: request) }
        return try await download.image(token: token, options: request.decodingOptions, priority: request.priority)
    }

    /// The image `request` asks for, as `image(for:)`, calling `progress` (on the download's
    /// thread) each time more of the body arrives. Nothing is reported for an image from a
    /// cache; a request joining a download in flight hears from then on.
    public func image(
        for request: ImageRequest, progress: @escaping @Sendable (LoadingProgress) -> Void
    ) async throws -> AnimatedImage {
        if let image = try await fromCaches(request) { return image }
        guard let (download, token) = join(request) else { return try await image(for: request, progress: progress) }
        download.observeProgress(token: token, progress)
        return try await download.image(token: token, options: request.decodingOptions, priority: request.priority)
    }

    /// A player of the image `request` asks for, showing on `display`, handed back as soon
    /// as the first frame's bytes are in: it plays the frames as they arrive, in order, and
    /// loops only once the whole file is in (see `AnimationPlayer.init(incrementalSource:)`).
    /// From a cache, or for a format that cannot be decoded while it arrives, it is a
    /// player of the whole image. The download goes on while the player is alive (or a
    /// request waits for the URL); the finished bytes go to both caches.
    public func player(
        for request: ImageRequest, display: (any AnimationDisplay)?, clock: any FrameClock = TimerClock.shared,
        configuration: PlayerConfiguration = PlayerConfiguration()
    ) async throws -> AnimationPlayer {
        if let image = try await fromCaches(request) {
            return AnimationPlayer(image: image, display: display, clock: clock, configuration: configuration)
        }
        guard let (download, token) = join(request) else {
            return try await player(for: request, display: display, clock: clock, configuration: configuration)
        }
        switch try await download.source(token: token, options: request.decodingOptions, priority: request.priority) {
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

    /// Loads `requests` into the caches in the background, errors ignored. Cancelling the
    /// returned task cancels the loads no one else is waiting for.
    @discardableResult
    public func prefetch(_ requests: [ImageRequest]) -> Task<Void, Never> {
        Task.detached { [self] in
            await withTaskGroup(of: Void.self) { group in
                for request in requests {
                    group.addTask(priority: request.priority.taskPriority) { _ = try? await self.image(for: request) }
                }
            }
        }
    }

    /// The image at `url` as `image(for:)` loads it, bypassing the memory cache, with its
    /// encoded bytes handed to `received` as they arrive (from the disk cache in one
    /// piece; never more than `maximumResponseBytes`). For the `zoetrope` tool, which
    /// streams them to its decoders; `received` runs under the download's lock and must not
    /// call the loader.
    package func image(for url: URL, received: @escaping @Sendable (Data) -> Void) async throws -> AnimatedImage {
        let request = ImageRequest(url: url, decodingOptions: configuration.decodingOptions)
        context.memory.remove(url)
        guard let (download, token) = join(request, observer: received) else {
            return try await image(for: url, received: received)
        }
        return try await download.image(token: token, options: request.decodingOptions, priority: request.priority)
    }

    /// What the caches can answer for `request` under its policy: nil sends it to a
    /// download; `.cacheOnly` throws `notCached` instead. Another decoding of the same URL
    /// in memory is decoded again at the request's options, without a download.
    private func fromCaches(_ request: ImageRequest) async throws -> AnimatedImage? {
        let key = request.key
        if request.cachePolicy == .reloadIgnoringCache { return nil }
        if let image = context.memory.image(for: key) { return image }
        if let variant = context.memory.anyVariant(of: key.url) {
            return try await decode(variant.data, request, fromDisk: false)
        }
        guard request.cachePolicy == .cacheOnly else { return nil }
        if !key.url.isFileURL, let entry = context.disk?.entry(for: key.url.absoluteString) {
            return try await decode(entry.body, request, fromDisk: true)
        }
        throw AnimatedImageError.notCached(url: key.url.absoluteString)
    }

    /// `data` decoded at the request's options off the caller's actor, kept in memory.
    private func decode(_ data: Data, _ request: ImageRequest, fromDisk: Bool) async throws -> AnimatedImage {
        let context = self.context, key = request.key
        return try await Task.detached(priority: request.priority.taskPriority) {
            do {
                let image = try AnimatedImage(data: data, registry: context.registry, options: key.options)
                context.memory.insert(image, for: key)
                return image
            } catch {
                if fromDisk { context.disk?.remove(url: key.url.absoluteString) }
                throw error
            }
        }.value
    }

    /// The download in flight for the request's URL, joined, or a new one started (always
    /// a new one for `.reloadIgnoringCache`); nil when the memory cache holds the image (a
    /// download finished since the caller looked). `observer`, when given, is handed the
    /// body (`LoaderDownload.observeBody`) before the fetch starts.
    private func join(_ request: ImageRequest, observer: (@Sendable (Data) -> Void)? = nil) -> (LoaderDownload, Int)? {
        let reload = request.cachePolicy == .reloadIgnoringCache
        let url = request.url
        let joined = context.inFlight.withLock { table -> (LoaderDownload, Int, Bool)? in
            if !reload, let running = table[url], let token = running.join(priority: request.priority) {
                if let observer { running.observeBody(observer) }
                return (running, token, false)
            }
            if !reload, observer == nil, context.memory.contains(request.key) { return nil }
            let download = LoaderDownload(request: request, context: context, ignoresCache: reload)
            if let observer { download.observeBody(observer) }
            table[url] = download
            return download.join(priority: request.priority).map { (download, $0, true) }
        }
        guard let (download, token, isNew) = joined else { return nil }
        if isNew { download.start() }
        return (download, token)
    }
}
