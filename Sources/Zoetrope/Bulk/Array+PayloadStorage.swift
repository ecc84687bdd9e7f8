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
