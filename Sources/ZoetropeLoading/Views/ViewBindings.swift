import Zoetrope

/// Which request each display shows and the playback each request shares, for
/// `AnimatedImageLoader.load(_:into:options:)`. Main-actor state: the view call runs there.
@MainActor
package final class ViewBindings {
    /// The key each display is bound to.
    private var bound: [ObjectIdentifier: ImageRequestKey] = [:]
    private var shared: [ImageRequestKey: SharedPlayback] = [:]

    nonisolated init() {}

    /// The playback of `key`, made when none is running.
    func playback(for key: ImageRequestKey) -> (SharedPlayback, isNew: Bool) {
        if let running = shared[key] { return (running, false) }
        let playback = SharedPlayback(key: key)
        playback.group.onEmpty = { [weak self, weak playback] in
            guard let self, let playback else { return }
            self.endIfUnused(playback)
        }
        shared[key] = playback
        return (playback, true)
    }

    /// Binds `display` to `playback`.
    func bind(_ display: any AnimationDisplay, to playback: SharedPlayback, options: ViewLoadOptions) {
        bound[ObjectIdentifier(display)] = playback.key
        playback.group.add(display, options: options)
    }

    /// The request key `display` is bound to, if any.
    func key(for id: ObjectIdentifier) -> ImageRequestKey? { bound[id] }

    /// Whether `display` is still bound to `playback` (it did not ask for something else).
    func isBound(_ id: ObjectIdentifier, to playback: SharedPlayback) -> Bool {
        bound[id] == playback.key && shared[playback.key] === playback
    }

    /// Unbinds the display: it leaves its playback, which ends when no display is left.
    func unbind(_ id: ObjectIdentifier) {
        guard let key = bound.removeValue(forKey: id), let playback = shared[key] else { return }
        playback.group.remove(id)
        endIfUnused(playback)
    }

    /// Ends `playback` when its group has no display left.
    func endIfUnused(_ playback: SharedPlayback) {
        guard playback.group.isEmpty else { return }
        playback.end()
        if shared[playback.key] === playback {
            shared[playback.key] = nil
            bound = bound.filter { $0.value != playback.key }
        }
    }

    /// Playbacks running and displays bound, for tests and diagnostics.
    package var counts: (playbacks: Int, displays: Int) { (shared.count, bound.count) }
}
