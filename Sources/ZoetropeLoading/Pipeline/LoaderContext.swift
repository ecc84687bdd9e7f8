import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every download of one loader shares: the caches, the configuration, the
/// transport (the network session), the queue and byte budget of downloads, and the table of downloads in flight
/// by URL (a download removes itself when done).
struct LoaderContext: Sendable {
    let memory: ImageMemoryCache
    let disk: DiskCache?
    let configuration: AnimatedImageLoader.Configuration
    let transport: any LoaderTransport
    let queue: DownloadQueue
    let budget: ResponseBudget
    let inFlight: Locked<[URL: LoaderDownload]>

    var registry: CoderRegistry { configuration.registry }
    /// Seconds since 1970 by the configuration's clock: what freshness is judged by.
    func now() -> Double { configuration.clock?() ?? Date().timeIntervalSince1970 }
    /// The most bytes one response may hold.
    var sizeLimit: Int { max(0, configuration.maximumResponseBytes) }
    var timeout: Duration { configuration.timeout }
    var maximumRedirects: Int { max(0, configuration.maximumRedirects) }

    /// Forgets `download` as the one in flight for its URL (unless another replaced it).
    func remove(_ download: LoaderDownload) {
        inFlight.withLock { table in
            if table[download.url] === download { table[download.url] = nil }
        }
    }
}
