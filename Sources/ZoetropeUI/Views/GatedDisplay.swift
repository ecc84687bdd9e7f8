import Zoetrope

/// Forwards to a display until closed; after `close()` returns, nothing more reaches it
/// (both run on the main actor, so no show is in progress then). `AnimatedContentController` puts
/// one between each player and the view so that a replaced player cannot draw.
package final class GatedDisplay: AnimationDisplay {
    // Main-actor state (the protocol's isolation): the controller that closes the gate and
    // the player's deliveries to it both run there, so no lock is needed. Weak: the view
    // behind the gate may own the controller, which owns the gate.
    private weak var target: (any AnimationDisplay)?

    package init(_ display: any AnimationDisplay) { target = display }

    package func close() { target = nil }

    package func show(_ frame: PixelBuffer, index: Int) {
        target?.show(frame, index: index)
    }

    package var isVisible: Bool { target?.isVisible ?? false }
}
