import Foundation

@testable import Zoetrope
@testable import ZoetropeLoading

/// The disk cache's entry reader on arbitrary bytes: the header parser, the whole-file
/// reader and the header writer. The header ends with a checksum of the rest, which random
/// bytes never match; when the input's byte 4088 is odd that checksum is made right first,
/// so the lengths, flags and strings behind it are explored too.
enum FuzzDiskCache {
    static func entry(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        var bytes = [UInt8](data)
        let size = DiskCacheMetadata.size
        if bytes.count >= size, bytes[size - 8] & 1 == 1 {
            let checksum = bytes.withUnsafeBytes { StripeHash64.hash(UnsafeRawBufferPointer(rebasing: $0[0..<(size - 8)])) }
            withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange((size - 8)..<size, with: $0) }
        }
        guard let metadata = bytes.withUnsafeBytes({ DiskCacheMetadata(header: $0) }) else { return outcome }
        outcome.opened = true
        // What parsed writes back to the same metadata.
        guard let encoded = metadata.encoded(), encoded.withUnsafeBytes({ DiskCacheMetadata(header: $0) }) == metadata else {
            outcome.problem = "a header that parsed does not survive being written again"
            return outcome
        }
        if let entry = DiskCacheEntry(file: Data(bytes), url: nil) {
            outcome.frameCount = 1
            if entry.body.count != metadata.bodyLength || entry.metadata != metadata {
                outcome.problem = "an entry whose body or metadata differ from its header"
            }
        }
        _ = DiskCacheEntry(file: Data(bytes), url: metadata.url)
        return outcome
    }
}
