import Foundation
import Zoetrope

extension AnimatedImageLoader {
    /// How a loader caches, decodes and talks to servers.
    public struct Configuration: Sendable {
        /// The most total cost (`AnimatedImage.cost`: poster plus encoded bytes) the memory
        /// cache keeps, in bytes.
        public var memoryCacheLimit: Int
        /// The most images the memory cache keeps.
        public var memoryCacheCountLimit: Int
        /// The disk cache of responses; nil keeps nothing on disk.
        public var diskCache: DiskCache.Configuration?
        /// The coders that decode what arrives (the content decides the format, never the URL).
        public var registry: CoderRegistry
        /// How images are decoded. `limits.maxAllocationBytes` also bounds a response's size.
        public var decodingOptions: DecodingOptions
        /// How long a download may go without receiving a byte (before the response
        /// headers too) before it fails with `AnimatedImageError.timedOut`. Time during
        /// which the process could not run the download's watch (every thread of the
        /// concurrency pool busy, which on Linux also holds up `URLSession`'s deliveries)
        /// does not count.
        public var timeout: Duration
        /// The most redirects followed for one request.
        public var maximumRedirects: Int
        /// The memory-pressure signal that empties the memory cache at `.warning` or worse;
        /// nil ignores memory pressure.
        public var memoryPressure: MemoryPressureSignal?

        /// A configuration; every parameter but the two the sample names has a default.
        ///
        /// - Parameters:
        ///   - memoryCacheLimit: total cost of the decoded images kept in memory, in bytes.
        ///   - diskCache: where responses are kept across launches, or nil.
        ///   - memoryCacheCountLimit: the most decoded images kept in memory (default 500).
        ///   - registry: the coders (default `CoderRegistry.shared`).
        ///   - decodingOptions: how images decode (default `.default`).
        ///   - timeout: the longest wait for the next byte (default 30 s).
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
            self.timeout = timeout
            self.maximumRedirects = maximumRedirects
            self.memoryPressure = memoryPressure
        }

        /// What `AnimatedImageLoader.shared` uses: a memory cache of a sixteenth of the
        /// machine's memory (at most 256 MiB) and 500 images, and the standard disk cache
        /// (`DiskCache.Configuration.standard`: 256 MiB in the user's caches folder).
        public static var standard: Configuration {
            let memory = Int(clamping: ProcessInfo.processInfo.physicalMemory / 16)
            return Configuration(memoryCacheLimit: min(memory, 256 << 20), diskCache: .standard)
        }
    }
}
