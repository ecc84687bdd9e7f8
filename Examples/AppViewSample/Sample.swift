// An application's view over the API: it must compile in Swift 6
// language mode with no @unchecked, nonisolated(unsafe) or @preconcurrency, and do what
// its comments say. main.swift runs it; Tests/ZoetropeCodecsTests/AppViewSampleTests checks it.
import Foundation
import Zoetrope
import ZoetropeCodecs          // a library product that re-exports the core and the four codec modules

@MainActor final class AnimatedImageView: AnimationDisplay {   // a UI class: plain main-actor state, no locks
    var image: PixelBuffer?
    var shownFrames: [Int] = []
    var isVisible = true
    func show(_ frame: PixelBuffer, index: Int) { image = frame; shownFrames.append(index) }
}

@MainActor func demo(path: String) async throws {
    CoderRegistry.shared.registerBuiltInCoders()               // one call, safe to repeat
    let image = try AnimatedImage(contentsOf: URL(fileURLWithPath: path))
    let view = AnimatedImageView()
    let player = AnimationPlayer(image: image, display: view)   // default clock shared by all players; poster reused, not decoded again
    player.play()
    try await Task.sleep(for: .seconds(1))
    player.pause()
    print(view.shownFrames.count, player.isAnimating)

    for try await frame in image.frames() {                     // every frame in order, decoded lazily, bounded memory
        print(frame.index, frame.duration, frame.pixels.size)
    }
    let timeline = image.info.uniformTimeline()                 // GCD of the display durations
    print(timeline.interval, timeline.frames)                   // e.g. [100, 200, 100] ms -> 100 ms, [0, 1, 1, 2]

    var configuration = PlayerConfiguration()
    configuration.delayPolicy = .imageIO                        // < 11 ms -> 100 ms, as ImageIO players do
    configuration.playbackMode = .bounce                        // also .forward, .reverse, .reverseBounce
    _ = configuration

    do { _ = try AnimatedImage(data: Data("not an image".utf8)) }
    catch { print(error.localizedDescription) }                 // the one-line message the tool prints, never a generic one
}
