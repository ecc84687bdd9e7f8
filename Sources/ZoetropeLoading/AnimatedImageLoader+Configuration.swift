import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AnimatedImageLoader {
    /// How a loader caches, decodes and talks to servers, and the bounds it keeps whatever
    /// a server sends.
    public struct Configuration: Sendable {
        /// The most total cost (`AnimatedImage.cost`: poster plus encoded bytes) the memory
        /// cache keeps, in bytes.
        public var memoryCacheLimit: Int
        /// The most images the memory cache keeps.
        public var memoryCacheCountLimit: Int
        /// The disk cache of responses; nil keeps nothing on disk. Any folder is safe: the
        /// cache reads, touches and deletes only the files it wrote.
        public var diskCache: DiskCache.Configuration?
        /// The coders that decode what arrives (the content decides the format, never the URL).
        public var registry: CoderRegistry
        /// How images requested by URL alone are decoded (an `ImageRequest` carries its own).
        public var decodingOptions: DecodingOptions
        /// The most bytes one response may hold, whatever the server sends (an endless or
        /// chunked body, a lying `Content-Length`, a compressed body that inflates):
        /// past it the download stops with `AnimatedImageError.responseTooLarge`.
        public var maximumResponseBytes: Int
        /// A body past this many bytes, from a response the disk cache may keep, is written
        /// to the disk cache's folder as it arrives instead of held in memory, and counts
        /// no more against `maximumResponseBytesInFlight`; it is read back once, complete, for
        /// its decode. Without a disk cache every body stays in memory.
        public var diskStreamingThreshold: Int
        /// The most bytes all downloads in flight may hold together; past it the download
        /// that would pass it stops with `AnimatedImageError.responseBudgetExceeded`.
        public var maximumResponseBytesInFlight: Int
        /// How long a download may go without receiving a byte of its body, or wait for the
        /// response head, before it fails (`AnimatedImageError.timedOut`, `.noResponse`).
        /// Time during which the process could not run the download's watch (every thread of
        /// the concurrency pool busy) does not count.
        public var timeout: Duration
        /// The longest a download may take from its first request to its last byte, however
        /// steadily the server sends (`AnimatedImageError.deadlineExceeded`).
        public var deadline: Duration
        /// The most redirects followed for one request.
        public var maximumRedirects: Int
        /// The most downloads on the network at once; the others wait in priority order.
        public var maximumConcurrentDownloads: Int
        /// Changes every request just before it is sent (authorization, cookies, user agent);
        /// an `ImageRequest`'s own modifier runs after it. An error it throws fails the load.
        public var requestModifier: (@Sendable (URLRequest) async throws -> URLRequest)?
        /// The memory-pressure signal that empties the memory cache at `.warning` or worse;
        /// nil ignores memory pressure.
        public var memoryPressure: MemoryPressureSignal?
        /// The `URLSession` settings to start from (proxies, cookies, TLS, extra headers,
        /// `httpMaximumConnectionsPerHost`). The loader takes a copy when it is made, and sets
        /// on it what it owns: no `URLCache` (it keeps its own caches), and the session's
        /// timeouts as backstops behind `timeout` and `deadline`. nil is the platform's
        /// default: on Linux that is libcurl, which reads a body only as fast as the loader
        /// keeps it; set this to download through FoundationNetworking's `URLSession`
        /// instead (Docs/Loading.md, "Transports").
        public var sessionConfiguration: URLSessionConfiguration?
        /// Where responses come from instead of a `URLSession` (the rule tests' scripted
        /// transport); nil is the network.
        package var transport: (any LoaderTransport)?
        /// Seconds since 1970 that freshness is judged by; nil is the system clock.
        package var clock: (@Sendable () -> Double)?

        /// A configuration; every parameter but the two the sample names has a default.
        ///
        /// - Parameters:
        ///   - memoryCacheLimit: total cost of the decoded images kept in memory, in bytes.
        ///   - diskCache: where responses are kept across launches, or nil.
        ///   - memoryCacheCountLimit: the most decoded images kept in memory (default 500).
        ///   - registry: the coders (default `CoderRegistry.shared`).
        ///   - decodingOptions: how images requested by URL decode (default `.default`).
        ///   - timeout: the longest wait for the response head or the next byte (default 30 s).
        ///   - maximumRedirects: the most redirects followed (default 10).
        ///   - memoryPressure: the signal that empties the memory cache (default `.shared`).
        public init(
            memoryCacheLimit: Int, diskCache: DiskCache.Configuration?, memoryCacheCountLimit: Int = 500,
            registry: CoderRegistry = .shared, decodingOptions: DecodingOptions = .default,
            timeout: Duration = .seconds(30), maximumRedirects: Int = 10,
            memoryPressure: MemoryPressureSignal? = .shared
        ) {
            self.memoryCacheLimit = memoryCacheLimit
            self.diskCache = diskCache
            self.memoryCacheCountLimit = memoryCacheCountLimit
            self.registry = registry
            self.decodingOptions = decodingOptions
            self.maximumResponseBytes = 64 << 20
            self.maximumResponseBytesInFlight = 256 << 20
            self.diskStreamingThreshold = 8 << 20
            self.timeout = timeout
            self.deadline = .seconds(300)
            self.maximumRedirects = maximumRedirects
            self.maximumConcurrentDownloads = 6
            self.memoryPressure = memoryPressure
        }

        /// What `AnimatedImageLoader.shared` uses: a memory cache of a sixteenth of the
        /// machine's memory (at most 256 MiB) and 500 images, the standard disk cache
        /// (`DiskCache.Configuration.standard`: 256 MiB in the user's caches folder),
        /// responses of at most 64 MiB each and 256 MiB together, a 30 s inactivity
        /// timeout, a 300 s deadline, six downloads at once.
        public static var standard: Configuration {
            let memory = Int(clamping: ProcessInfo.processInfo.physicalMemory / 16)
            return Configuration(memoryCacheLimit: min(memory, 256 << 20), diskCache: .standard)
        }
    }
}
