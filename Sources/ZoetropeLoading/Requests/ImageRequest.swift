import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One image as a view asks for it: the URL, and what varies per view — how to decode it,
/// how urgent it is, which caches may answer, and how the HTTP request is made.
///
/// ```swift
/// var thumbnail = ImageRequest(url: url)
/// thumbnail.decodingOptions.targetSize = PixelSize(width: 189, height: 76)
/// thumbnail.priority = .high
/// let image = try await loader.image(for: thumbnail)
/// ```
///
/// Requests for one URL share one download and one disk entry whatever their options; the
/// memory cache and the decode are per URL and `decodingOptions`, so a thumbnail and a
/// full-size view of one URL are two decodes of the same bytes. When several requests
/// join one download, the first one's `urlRequest` and `requestModifier` make it.
public struct ImageRequest: Sendable {
    /// The request sent for the image (method, headers, timeout interval). Its URL is the
    /// image's URL and the caches' key.
    public var urlRequest: URLRequest
    /// How the image is decoded (size, alpha, colour, limits). Starts as `.default`.
    public var decodingOptions: DecodingOptions
    /// How urgent the request is: it orders the queue of downloads and the decodes.
    public var priority: Priority
    /// Which caches may answer and whether the network may be asked.
    public var cachePolicy: CachePolicy
    /// Changes the `URLRequest` just before it is sent, after the loader's own
    /// `Configuration.requestModifier`: headers, a token fetched now. An error it throws
    /// fails the request with that error.
    public var requestModifier: (@Sendable (URLRequest) async throws -> URLRequest)?

    /// A request for the image at `url`, decoded with `decodingOptions`.
    public init(
        url: URL, decodingOptions: DecodingOptions = .default, priority: Priority = .normal,
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) {
        self.init(urlRequest: URLRequest(url: url), decodingOptions: decodingOptions, priority: priority, cachePolicy: cachePolicy)
    }

    /// A request sent as `urlRequest` (its headers, method and timeout interval kept; the
    /// loader sets its own cache policy and conditional headers).
    public init(
        urlRequest: URLRequest, decodingOptions: DecodingOptions = .default, priority: Priority = .normal,
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) {
        self.urlRequest = urlRequest
        self.decodingOptions = decodingOptions
        self.priority = priority
        self.cachePolicy = cachePolicy
    }

    /// The image's URL (`urlRequest.url`; an empty file URL when the request has none).
    public var url: URL {
        urlRequest.url ?? URL(fileURLWithPath: "")
    }

    /// What the memory cache and in-flight decodes are keyed by.
    var key: ImageRequestKey { ImageRequestKey(url: url, options: decodingOptions) }
}
