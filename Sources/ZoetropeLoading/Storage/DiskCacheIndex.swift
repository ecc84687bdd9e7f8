/// What a disk cache knows of its folder: the entries' sizes and last uses, the bytes of
/// other processes' writes in progress, and where the scan of the folder is.
struct DiskCacheIndex {
    struct Item {
        var size: Int
        /// Microseconds since 1970 (the file's modification time).
        var used: Int64
    }

    enum Scan { case notStarted, running, done }

    var scan = Scan.notStarted
    /// The scan and the eviction that followed it are over.
    var settled = false
    private(set) var items: [String: Item] = [:]
    /// The sum of the items' sizes.
    private(set) var bytes = 0
    /// Temporary files of other processes still writing, found by the scan.
    var writingBytes = 0
    /// Names this instance removed while the scan ran (the scan may have listed them).
    var removedDuringScan: Set<String> = []
    /// An eviction is running (one at a time).
    var evicting = false
    /// The last stamp this instance set, so that entries used in a row keep their order
    /// even within one tick of the clock.
    var lastStamp: Int64 = 0
    /// The marker was written (or found) by this instance.
    var marked = false
    /// Bytes written to the folder by this instance (headers and bodies).
    var bytesWritten = 0

    var total: Int { bytes + writingBytes }

    mutating func set(_ name: String, _ item: Item) {
        bytes += item.size - (items.updateValue(item, forKey: name)?.size ?? 0)
        if scan == .running { removedDuringScan.remove(name) }
    }

    mutating func remove(_ name: String) {
        bytes -= items.removeValue(forKey: name)?.size ?? 0
        if scan == .running { removedDuringScan.insert(name) }
    }

    mutating func markUsed(_ name: String, at stamp: Int64) {
        items[name]?.used = stamp
    }

    /// Takes the scan's listing: entries this instance wrote or removed meanwhile keep
    /// what this instance knows.
    mutating func merge(scanned: [String: Item], writing: Int) {
        for (name, item) in scanned where items[name] == nil && !removedDuringScan.contains(name) {
            items[name] = item
            bytes += item.size
        }
        removedDuringScan = []
        writingBytes = writing
        scan = .done
    }

    /// A stamp after every stamp this instance set before, near `now` (microseconds).
    mutating func nextStamp(now: Int64) -> Int64 {
        lastStamp = max(now, lastStamp + 1)
        return lastStamp
    }
}
