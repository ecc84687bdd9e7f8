#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An `AnimatedImage`'s name in a `SharedFrameCache` when the policy names none: the
/// SHA-256 of its bytes plus its decoding options (`AnimatedImage.sharedCacheKey`), so that
/// players of the same bytes share frames whoever loaded them.
///
/// Hashing reads every byte of the file, so it is done once per image (copies of the value
/// share this object), only when a player under a sharing policy first asks for a frame,
/// and on a thread of its own: the frames such a player asks for meanwhile wait as if
/// another player were decoding them (`FrameLookup.inProgress`), and its waiter runs when
/// the name is known.
final class ImageContentIdentity: Sendable {
    private enum State {
        case unknown
        case hashing(waiters: [@Sendable () -> Void])
        case known(String)
    }
    private let data: Data
    private let options: DecodingOptions
    private let state = Locked(State.unknown)
    /// Whether the hash has started, and whether its waiters have all run (for tests).
    private let progress = Locked((started: false, waitersRan: false))

    init(data: Data, options: DecodingOptions) {
        self.data = data
        self.options = options
    }

    /// The name, if it is known; else nil, and `waiter` runs once it is (the hash starts
    /// now on its own thread if it has not yet).
    func name(orWhenKnown waiter: @escaping @Sendable () -> Void) -> String? {
        let start = state.withLock { s -> Bool? in
            switch s {
            case .known: return nil
            case .hashing(var waiters):
                waiters.append(waiter)
                s = .hashing(waiters: waiters)
                return false
            case .unknown:
                s = .hashing(waiters: [waiter])
                return true
            }
        }
        guard let start else { return knownName }
        if start {
            progress.withLock { $0.started = true }
            NativeThread.detach(name: "zoetrope.hash") { [self] in
                let name = ImageContentIdentity.name(of: data, options: options)
                let waiters = state.withLock { s -> [@Sendable () -> Void] in
                    guard case .hashing(let waiters) = s else { return [] }
                    s = .known(name)
                    return waiters
                }
                for w in waiters { w() }
                progress.withLock { $0.waitersRan = true }
            }
        }
        return nil
    }

    /// Whether hashing has started (a player under a sharing policy asked for a frame).
    var hashStarted: Bool { progress.withLock { $0.started } }
    /// Whether the hash is done and the players waiting for it have been told.
    var waitersRan: Bool { progress.withLock { $0.waitersRan } }

    /// The name once hashed, else nil.
    var knownName: String? {
        state.withLock { s in if case .known(let name) = s { name } else { nil } }
    }

    /// The name of `data` decoded with `options`, computed now.
    static func name(of data: Data, options: DecodingOptions) -> String {
        "sha256:\(SHA256.hex(data)) options:\(AnimatedImage.cacheKey(of: options))"
    }
}
