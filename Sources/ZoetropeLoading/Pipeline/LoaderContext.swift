import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every download of one loader shares: the caches, how to decode, the network
/// session, and the table of downloads in flight (a download removes itself when done).
struct LoaderContext: Sendable {
    let memory: ImageMemoryCache
    let disk: DiskCache?
    let registry: CoderRegistry
    let options: DecodingOptions
    let timeout: Duration
    let maximumRedirects: Int
    let network: LoaderNetwork
    let inFlight: Locked<[URL: LoaderDownload]>

    /// The response size limit: the decoder's allocation limit.
    var sizeLimit: Int { options.limits.maxAllocationBytes }

    /// Forgets `download` as the one in flight for its URL (unless another replaced it).
    func remove(_ download: LoaderDownload) {
        inFlight.withLock { table in
            if table[download.url] === download { table[download.url] = nil }
        }
    }
}
