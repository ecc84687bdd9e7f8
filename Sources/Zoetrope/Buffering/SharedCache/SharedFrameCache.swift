/// Decoded frames shared by the players of one image, so that each frame is decoded once
/// however many players show it.
///
/// Players lease the frames in their window. The first player to want a frame decodes it
/// and publishes it; the others wait for it. A frame no player leases is dropped and its
/// buffer reused, so memory follows the union of the players' windows: players of one
/// image in step decode each frame once per loop. Thread-safe.
///
/// Players reach it through `SharedBufferPolicy`; leasing, publishing and releasing
/// frames is the player's business and not part of the public API.
public final class SharedFrameCache: Sendable {
    /// A process-wide cache.
    public static let shared = SharedFrameCache()

    private enum Slot {
        case decoding(waiters: [@Sendable () -> Void])
        case ready(PixelBuffer)
    }
    private struct Entry {
        var slot: Slot
        var leases: Int
    }
    private struct State {
        var entries: [SharedFrameKey: [Int: Entry]] = [:]
        var pool = FramePool(maxIdle: 4)
        var decodes: [SharedFrameKey: Int] = [:]
        var peakBytes = 0
    }
    private let state = Locked(State())

    /// An empty cache; `shared` serves the whole process.
    public init() {}

    /// Asks for frame `index` of `key`. See `FrameLookup`; `waiter` is kept only for `.inProgress`.
    package func acquire(_ key: SharedFrameKey, frame index: Int, waiter: @escaping @Sendable () -> Void) -> FrameLookup {
        state.withLock { s in
            if var e = s.entries[key]?[index] {
                switch e.slot {
                case .ready(let buffer):
                    e.leases += 1
                    s.entries[key]![index] = e
                    return .ready(buffer)
                case .decoding(var waiters):
                    waiters.append(waiter)
                    e.slot = .decoding(waiters: waiters)
                    s.entries[key]![index] = e
                    return .inProgress
                }
            }
            s.entries[key, default: [:]][index] = Entry(slot: .decoding(waiters: []), leases: 1)
            s.decodes[key, default: 0] += 1
            return .decodeHere(s.pool.take())
        }
    }

    /// Stores the frame a `.decodeHere` produced and wakes the players waiting for it.
    package func publish(_ key: SharedFrameKey, frame index: Int, buffer: PixelBuffer) {
        let waiters = state.withLock { s -> [@Sendable () -> Void] in
            guard var e = s.entries[key]?[index], case .decoding(let waiters) = e.slot else {
                s.pool.give(buffer)
                return []
            }
            if e.leases <= 0 {
                s.entries[key]![index] = nil
                s.pool.give(buffer)
            } else {
                e.slot = .ready(buffer)
                s.entries[key]![index] = e
            }
            s.peakBytes = max(s.peakBytes, Self.bytes(s))
            return waiters
        }
        for w in waiters { w() }
    }

    /// Gives up a `.decodeHere` (the decode failed): waiters wake and try themselves.
    package func abandon(_ key: SharedFrameKey, frame index: Int) {
        let waiters = state.withLock { s -> [@Sendable () -> Void] in
            guard let e = s.entries[key]?[index], case .decoding(let waiters) = e.slot else { return [] }
            s.entries[key]![index] = nil
            return waiters
        }
        for w in waiters { w() }
    }

    /// Drops a lease from `.ready` or `.decodeHere`; an unleased decoded frame is freed.
    package func release(_ key: SharedFrameKey, frame index: Int) {
        state.withLock { s in
            guard var e = s.entries[key]?[index] else { return }
            e.leases -= 1
            if e.leases <= 0, case .ready(let buffer) = e.slot {
                s.entries[key]![index] = nil
                s.pool.give(buffer)
                if s.entries[key]!.isEmpty { s.entries[key] = nil }
            } else {
                s.entries[key]![index] = e
            }
        }
    }

    /// Frames decoded for `key` so far (each `.decodeHere`).
    package func decodeCount(for key: SharedFrameKey) -> Int { state.withLock { $0.decodes[key] ?? 0 } }
    /// Decoded frames held now, over all images.
    package var framesHeld: Int {
        state.withLock { s in s.entries.values.reduce(0) { $0 + $1.values.filter { if case .ready = $0.slot { true } else { false } }.count } }
    }
    /// Bytes of decoded frames and idle buffers held now.
    package var bytesHeld: Int { state.withLock { Self.bytes($0) } }
    /// The most bytes held at once.
    package var peakBytesHeld: Int { state.withLock { $0.peakBytes } }

    /// Frees idle buffers (memory pressure).
    public func trim() { state.withLock { $0.pool.trim(to: 0) } }

    private static func bytes(_ s: State) -> Int {
        var total = s.pool.idleBytes
        for frames in s.entries.values {
            for e in frames.values { if case .ready(let b) = e.slot { total += b.byteCount } }
        }
        return total
    }
}
