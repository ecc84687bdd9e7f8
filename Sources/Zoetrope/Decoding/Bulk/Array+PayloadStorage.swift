extension [UInt8] {
    /// Makes the array exactly `count` bytes long on storage of at least `capacity` bytes:
    /// how a `ParallelFrameDecoding` source shapes the recycled storage it is handed. With
    /// `capacity` the largest payload, each recycled array is allocated once and then only
    /// shortened or lengthened within its storage (no allocation, no page faults). Bytes
    /// kept from before are not cleared; the decoder overwrites them.
    package mutating func resizeForPayload(_ count: Int, capacity: Int) {
        if self.count > count {
            removeLast(self.count - count)
        } else if self.count < count {
            if self.capacity < count { reserveCapacity(Swift.max(count, capacity)) }
            append(contentsOf: repeatElement(0, count: count - self.count))
        }
    }
}

extension ParallelFrameDecoding {
    /// The common shape of `decodePayload` for a payload of `count` bytes: takes the
    /// recycled `storage`, shapes it (see `resizeForPayload`), lets `decode` fill it, and
    /// returns it; when `decode` throws, gives the storage back and returns nil, so the
    /// frame takes `decodeFrame`, which reports the error.
    package func fillPayload(
        count: Int, storage: inout [UInt8],
        _ decode: (UnsafeMutableRawBufferPointer) throws -> Void
    ) -> [UInt8]? {
        var pixels = storage
        storage = []
        pixels.resizeForPayload(count, capacity: maxPayloadByteCount)
        do {
            try pixels.withUnsafeMutableBytes { try decode($0) }
        } catch {
            storage = pixels
            return nil
        }
        return pixels
    }
}
