extension [UInt8] {
    /// Makes the array exactly `count` bytes long, keeping its storage where it can: how a
    /// `ParallelFrameDecoding` source shapes the recycled storage it is handed. Bytes kept
    /// from before are not cleared; the decoder overwrites them.
    package mutating func resizeForPayload(_ count: Int) {
        if self.count > count {
            removeLast(self.count - count)
        } else if self.count < count {
            if isEmpty {
                self = [UInt8](repeating: 0, count: count)
            } else {
                self += [UInt8](repeating: 0, count: count - self.count)
            }
        }
    }
}
