import Foundation
import Zoetrope

/// Decoded images by URL, bounded by total cost (`AnimatedImage.cost`) and by count, least
/// recently used evicted first. A hit is one hash lookup and four index writes under a
/// lock: no allocation.
final class ImageMemoryCache: Sendable {
    /// The most total cost kept.
    let costLimit: Int
    /// The most images kept.
    let countLimit: Int
    private let state: Locked<State>

    /// An entry in the recency list (a doubly linked list threaded through an array).
    private struct Node {
        var url: URL
        var image: AnimatedImage
        var cost: Int
        var newer = -1
        var older = -1
    }

    private struct State {
        var slots: [Node?] = []
        var free: [Int] = []
        var index: [URL: Int] = [:]
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
            index[node.url] = nil
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

    /// The image for `url`, now the most recently used; nil on a miss.
    func image(for url: URL) -> AnimatedImage? {
        state.withLock { s -> AnimatedImage? in
            guard let i = s.index[url] else { return nil }
            if s.newest != i {
                s.unlink(i)
                s.pushNewest(i)
            }
            return s.slots[i]!.image
        }
    }

    /// Whether an image for `url` is kept (its recency unchanged).
    func contains(_ url: URL) -> Bool {
        state.withLock { $0.index[url] != nil }
    }

    /// Keeps `image` for `url` as the most recently used, then evicts the least recently
    /// used until within both limits. An image costing more than the whole limit is not kept.
    func insert(_ image: AnimatedImage, for url: URL) {
        let cost = image.cost
        state.withLock { s in
            if let i = s.index[url] { s.remove(i) }
            guard cost <= costLimit, countLimit > 0 else { return }
            let node = Node(url: url, image: image, cost: cost)
            let i: Int
            if let reused = s.free.popLast() {
                i = reused
                s.slots[i] = node
            } else {
                i = s.slots.count
                s.slots.append(node)
            }
            s.index[url] = i
            s.totalCost += cost
            s.pushNewest(i)
            while s.totalCost > costLimit || s.index.count > countLimit, s.oldest >= 0, s.oldest != i {
                s.remove(s.oldest)
            }
        }
    }

    /// Forgets the image for `url`.
    func remove(_ url: URL) {
        state.withLock { s in
            if let i = s.index[url] { s.remove(i) }
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
