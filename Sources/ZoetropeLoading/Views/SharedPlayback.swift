import Zoetrope

/// What the displays showing one request share: the group they are shown through, the one
/// player (one decoder) that feeds it, and the load that makes the player.
@MainActor
final class SharedPlayback {
    let key: ImageRequestKey
    let group = DisplayGroup()
    var player: AnimationPlayer?
    var loading: Task<Void, Never>?

    init(key: ImageRequestKey) {
        self.key = key
    }

    /// Stops everything: the load, the player.
    func end() {
        loading?.cancel()
        loading = nil
        player?.stop()
        player = nil
    }
}
