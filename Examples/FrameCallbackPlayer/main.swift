// The block API. A closure receives every frame on time; no view at all.
// Headless: a simulated 60 Hz host clock; the closure prints each frame it is handed.
// Usage: FrameCallbackPlayer FILE
import Foundation
import ZoetropeCodecs
import ZoetropeTesting

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: FrameCallbackPlayer FILE\n".utf8))
    exit(2)
}
CoderRegistry.shared.registerBuiltInCoders()
let data = try AnimatedImage.fileData(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))

let clock = ManualClock()
let decoder = SimulatedDecodeExecutor()
let attachment = decoder.attach(to: clock)
let configuration = PlayerConfiguration(executor: decoder, memoryPressure: nil)

// One closure per frame: what a `play(data) { frame in ... }` block API does.
let playback = try AnimationPlayer.playFrames(of: data, clock: clock, configuration: configuration) { frame in
    let centre = frame.pixels.pixel(x: frame.pixels.width / 2, y: frame.pixels.height / 2)
    print("frame \(frame.index): \(frame.pixels.width)×\(frame.pixels.height), centre RGBA \(centre)")
}
let refresh = RefreshPattern.fixed(hertz: 60)
for k in 0..<(60 * 3) where !playback.isFinished {
    clock.tick(atNanoseconds: refresh.nanoseconds(ofTick: k))
}
print(playback.isFinished ? "finished" : "still playing", "after \(playback.player.playsCompleted) plays")
playback.stop()
attachment.cancel()
