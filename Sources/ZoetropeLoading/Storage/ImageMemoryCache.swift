import Foundation
import Zoetrope

/// Decoded images by URL and decoding options, bounded by total cost (`AnimatedImage.cost`)
/// and by count, least recently used evicted first. A hit is one hash lookup and four index
/// writes under a lock: no allocation.
final class ImageMemoryCache: Sendable {
    /// The most total cost kept.
    let costLimit: Int
    /// The most images kept.
    let countLimit: Int
    private let state: Locked<State>

    /// An entry in the recency list (a doubly linked list threaded through an array).
    private struct Node {
        var key: ImageRequestKey
        var image: AnimatedImage
        var cost: Int
        var newer = -1
        var older = -1
    }

    private struct State {
        var slots: [Node?] = []
        var free: [Int] = []
        var index: [ImageRequestKey: Int] = [:]
        /// The slots of each URL's images, one per decoding options.
        var variants: [URL: Set<Int>] = [:]
        var newest = -1
        var oldest = -1
        var totalCost = 0

        mutating func unlink(_ i: Int) {
            guard let node = slots[i] else { return }
            if node.newer >= 0 { slots[node.newer]!.older = node.older } else { newest = node.older }
            if node.older >= 0 { slots[node.older]!.newer = node.newer } else { oldest = node.newer }
            slots[i]!.newer = -1
            slots[i]!.older = -1
        }

        mutating func pushNewest(_ i: Int) {
            slots[i]!.older = newest
            slots[i]!.newer = -1
            if newest >= 0 { slots[newest]!.newer = i }
            newest = i
            if oldest < 0 { oldest = i }
        }

        mutating func remove(_ i: Int) {
            guard let node = slots[i] else { return }
            unlink(i)
            index[node.key] = nil
            variants[node.key.url]?.remove(i)
            if variants[node.key.url]?.isEmpty == true { variants[node.key.url] = nil }
            totalCost -= node.cost
            slots[i] = nil
            free.append(i)
        }
    }

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = max(0, costLimit)
        self.countLimit = max(0, countLimit)
        var initial = State()
        initial.index.reserveCapacity(min(self.countLimit, 1024))
        state = Locked(initial)
    }

    /// The image for `key`, now the most recently used; nil on a miss.
    func image(for key: ImageRequestKey) -> AnimatedImage? {
        state.withLock { s -> AnimatedImage? in
            guard let i = s.index[key] else { return nil }
            if s.newest != i {
                s.unlink(i)
                s.pushNewest(i)
            }
            return s.slots[i]!.image
        }
    }

    /// Whether an image for `key` is kept (its recency unchanged).
    func contains(_ key: ImageRequestKey) -> Bool {
        state.withLock { $0.index[key] != nil }
    }

    /// An image of `url` decoded with any options (its encoded bytes serve another
    /// decode without a download); its recency unchanged.
    func anyVariant(of url: URL) -> AnimatedImage? {
        state.withLock { s in s.variants[url]?.first.flatMap { s.slots[$0]?.image } }
    }

    /// Keeps `image` for `key` as the most recently used, then evicts the least recently
    /// used until within both limits. An image costing more than the whole limit is not kept.
    func insert(_ image: AnimatedImage, for key: ImageRequestKey) {
        let cost = image.cost
        state.withLock { s in
            if let i = s.index[key] { s.remove(i) }
            guard cost <= costLimit, countLimit > 0 else { return }
            let node = Node(key: key, image: image, cost: cost)
            let i: Int
            if let reused = s.free.popLast() {
                i = reused
                s.slots[i] = node
            } else {
                i = s.slots.count
                s.slots.append(node)
            }
            s.index[key] = i
            s.variants[key.url, default: []].insert(i)
            s.totalCost += cost
            s.pushNewest(i)
            while s.totalCost > costLimit || s.index.count > countLimit, s.oldest >= 0, s.oldest != i {
                s.remove(s.oldest)
            }
        }
    }

    /// Forgets every image of `url`, whatever its options.
    func remove(_ url: URL) {
        state.withLock { s in
            for i in s.variants[url] ?? [] { s.remove(i) }
        }
    }

    /// Forgets every image.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The images kept and their total cost.
    var usage: (count: Int, cost: Int) {
        state.withLock { ($0.index.count, $0.totalCost) }
    }
}
