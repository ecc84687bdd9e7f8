import Zoetrope

/// The one display of a player shared by several views: it shows each frame on every
/// member still alive, is visible while any member is, and tells its owner when the last
/// member is gone. Members are held weakly, as a player holds its display.
@MainActor
final class DisplayGroup: AnimationDisplay {
    struct Member {
        weak var display: (any AnimationDisplay)?
        var id: ObjectIdentifier
        var options: ViewLoadOptions
    }

    private(set) var members: [Member] = []
    /// Called when a frame finds no member left.
    var onEmpty: (@MainActor () -> Void)?

    nonisolated init() {}

    func add(_ display: any AnimationDisplay, options: ViewLoadOptions) {
        members.append(Member(display: display, id: ObjectIdentifier(display), options: options))
    }

    func remove(_ id: ObjectIdentifier) {
        members.removeAll { $0.id == id || $0.display == nil }
    }

    var isEmpty: Bool {
        members.removeAll { $0.display == nil }
        return members.isEmpty
    }

    func show(_ frame: PixelBuffer, index: Int) {
        var alive = false
        for member in members {
            guard let display = member.display else { continue }
            alive = true
            display.show(frame, index: index)
        }
        if !alive { onEmpty?() }
    }

    var isVisible: Bool {
        members.contains { $0.display?.isVisible == true }
    }
}
