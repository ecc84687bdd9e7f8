/// Decoded frames a player holds, by index, with their byte total kept up to date so that
/// reporting memory on every tick costs nothing.
struct HeldFrames: Sendable {
    private var storage: [Int: PixelBuffer] = [:]
    private(set) var byteCount = 0

    subscript(index: Int) -> PixelBuffer? {
        get { storage[index] }
        set {
            if let old = storage[index] { byteCount -= old.byteCount }
            storage[index] = newValue
            if let new = newValue { byteCount += new.byteCount }
        }
    }

    mutating func removeValue(forKey index: Int) -> PixelBuffer? {
        guard let old = storage.removeValue(forKey: index) else { return nil }
        byteCount -= old.byteCount
        return old
    }

    var keys: Dictionary<Int, PixelBuffer>.Keys { storage.keys }
    var count: Int { storage.count }
}
