// An ImageIO-style player driven by the display's refresh (a display link).
//
// Delays follow ImageIO's rule (under 11 ms plays as 100 ms), the host's refresh callback
// drives a ManualClock, the refresh rate is chosen from the animation, and low power
// shows the poster. Headless: a simulated 60 Hz refresh prints each frame as it changes.
// Usage: DisplayLinkPlayer FILE
import Foundation
import ZoetropeCodecs
import ZoetropeTesting

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: DisplayLinkPlayer FILE\n".utf8))
    exit(2)
}
CoderRegistry.shared.registerBuiltInCoders()
let image = try AnimatedImage(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))

// The stored delays, as a browser and as ImageIO would show them.
for (index, raw) in image.info.frameDurations.enumerated() {
    print("frame \(index): stored \(raw), browser \(DelayPolicy.browser.displayDuration(for: raw)), imageIO \(DelayPolicy.imageIO.displayDuration(for: raw))")
}

// A display link need not run faster than the animation's common tick.
let tick = image.info.uniformTimeline(delayPolicy: .imageIO).interval
print("preferred refresh: \(Int((1 / tick.seconds).rounded())) Hz (tick \(tick))")

// The host's refresh callback drives the clock; decodes are simulated so that the
// output is the same on every run.
let clock = ManualClock()
let decoder = SimulatedDecodeExecutor()
let attachment = decoder.attach(to: clock)
var configuration = PlayerConfiguration(executor: decoder, memoryPressure: nil)
configuration.delayPolicy = .imageIO
let view = HeadlessDisplay()
let player = AnimationPlayer(source: try image.makeFrameSource(), clock: clock, display: view, configuration: configuration)
let finished = player.observe { event in
    if case .finished = event { print("finished, resting on the last frame") }
}
view.setAnimation(player)
// Once playing, the clock itself reports the rate to give the display link.
print("clock's preferred refresh while playing: \(Int(clock.preferredFramesPerSecond ?? 0)) Hz")

let refresh = RefreshPattern.fixed(hertz: 60)
var shown: Int?
for k in 0..<(60 * 3) {                                  // three seconds of refreshes
    let t = refresh.nanoseconds(ofTick: k)
    clock.tick(atNanoseconds: t)                          // what a display link callback does
    if let index = view.currentFrameIndex, index != shown {
        print("t=\(t / 1_000_000) ms: frame \(index)")
        shown = index
    }
}
print("state \(player.state), plays completed \(player.playsCompleted)")

// Low power: the poster, as ImageIO players do.
var saving = configuration
saving.environment = PlaybackEnvironment(lowPower: true, lowPowerBehavior: .poster)
let lowPowerView = HeadlessDisplay()
let lowPowerPlayer = AnimationPlayer(source: try image.makeFrameSource(), clock: clock, display: lowPowerView, configuration: saving)
lowPowerView.setAnimation(lowPowerPlayer)
for k in 0..<30 { clock.tick(atNanoseconds: 4_000_000_000 + refresh.nanoseconds(ofTick: k)) }
print("low power: state \(lowPowerPlayer.state), frame \(lowPowerView.currentFrameIndex.map(String.init) ?? "none")")
finished.cancel()
attachment.cancel()
