import Foundation
import Zoetrope

/// What changes a decoded image: the URL and the decoding options. The memory cache and
/// the decodes of a download are keyed by it; the download and the disk entry by the URL.
struct ImageRequestKey: Hashable, Sendable {
    var url: URL
    var options: DecodingOptions
}
