extension ImageRequest {
    /// Which caches may answer a request and whether the network may be asked.
    public enum CachePolicy: Sendable, Hashable {
        /// The memory cache, then the disk cache as HTTP's caching rules allow (a fresh
        /// entry without asking, a stale one revalidated), then the network.
        case useProtocolCachePolicy
        /// Neither cache is read: the server is asked, unconditionally. The response is
        /// still kept as its headers allow.
        case reloadIgnoringCache
        /// The memory cache, then the disk cache whatever the entry's freshness, never the
        /// network: a miss throws `AnimatedImageError.notCached`.
        case cacheOnly
    }
}
