// One view that shows either a still image or an animation, never both.
// A still file is shown as a still (no player, no clock); an animated one gets a player.
// Headless: prints what the view holds after each file.
// Usage: StillOrAnimatedView FILE...
import Foundation
import ZoetropeCodecs
import ZoetropeTesting

guard CommandLine.arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StillOrAnimatedView FILE...\n".utf8))
    exit(2)
}
CoderRegistry.shared.registerBuiltInCoders()

let clock = ManualClock()
let decoder = SimulatedDecodeExecutor()
let attachment = decoder.attach(to: clock)
let view = HeadlessDisplay()
var now: Int64 = 0
// The view and its player hold each other weakly, so the app keeps both.
var player: AnimationPlayer?

func describe(_ content: HeadlessDisplay.Content) -> String {
    switch content {
    case .empty: "empty"
    case .still(let pixels): "still \(pixels.width)×\(pixels.height)"
    case .animation(let player): "animation of \(player.info.frameCount) frames, \(player.state)"
    }
}

for path in CommandLine.arguments.dropFirst() {
    let image = try AnimatedImage(contentsOf: URL(fileURLWithPath: path))
    if image.isAnimated {
        let next = AnimationPlayer(source: try image.makeFrameSource(), clock: clock,
                                   configuration: PlayerConfiguration(executor: decoder, memoryPressure: nil))
        view.setAnimation(next)                   // replaces (and stops) whatever was shown
        player = next
    } else {
        view.setStill(image.poster)               // stops and detaches the animation, if any
        player = nil
    }
    for _ in 0..<30 {                             // half a second of 60 Hz refreshes
        clock.tick(atNanoseconds: now)
        now += 16_666_667
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    let onShow = view.currentFrameIndex.map { "frame \($0), \(view.framesShown) animation frames shown so far" } ?? "the still"
    print("\(name): \(describe(view.content)); on show: \(onShow)")
}
attachment.cancel()
