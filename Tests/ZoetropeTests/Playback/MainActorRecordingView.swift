import Foundation

@testable import Zoetrope

/// A UI-style display: a @MainActor class with plain state, recording every frame shown and
/// whether it arrived on the main actor (the main thread or the main queue).
@MainActor final class MainActorRecordingView: AnimationDisplay {
    var shown: [Int] = []
    var onMainThread: [Bool] = []
    var isVisible = true
    func show(_ frame: PixelBuffer, index: Int) {
        shown.append(index)
        onMainThread.append(DisplayDelivery.onMainActor)
    }
}
