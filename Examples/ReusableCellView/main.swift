// A Gifu-style image view: `animate(with:)`, `startAnimating()`,
// `stopAnimating()`, and `prepareForReuse()` when a list recycles the cell that holds it.
// Headless: one view is reused for each file in turn, as a table cell would be.
// Usage: ReusableCellView FILE...
import Foundation
import ZoetropeCodecs
import ZoetropeTesting

/// The view: a display plus the player it owns. A real one would draw `display.currentFrame`.
final class GIFImageView {
    let display = HeadlessDisplay()
    private(set) var player: AnimationPlayer?
    private let clock: ManualClock
    private let decoder: SimulatedDecodeExecutor

    init(clock: ManualClock, decoder: SimulatedDecodeExecutor) {
        self.clock = clock
        self.decoder = decoder
    }

    /// Shows `image`, animating it when it has more than one frame.
    func animate(with image: AnimatedImage) throws {
        guard image.isAnimated else {
            display.setStill(image.poster)
            player = nil
            return
        }
        let player = AnimationPlayer(source: try image.makeFrameSource(), clock: clock,
                                     configuration: PlayerConfiguration(executor: decoder, memoryPressure: nil))
        self.player = player
        display.setAnimation(player)
    }

    func startAnimating() { player?.play() }
    func stopAnimating() { player?.pause() }
    var isAnimating: Bool { player?.state == .playing }

    /// Frees the frames and detaches the player: the cell is about to show something else.
    func prepareForReuse() {
        player?.prepareForReuse()
        display.clear()
        player = nil
    }
}

guard CommandLine.arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ReusableCellView FILE...\n".utf8))
    exit(2)
}
CoderRegistry.shared.registerBuiltInCoders()
let clock = ManualClock()
let decoder = SimulatedDecodeExecutor()
let attachment = decoder.attach(to: clock)
let view = GIFImageView(clock: clock, decoder: decoder)
var now: Int64 = 0
@MainActor func refresh(for ticks: Int) {
    for _ in 0..<ticks {
        clock.tick(atNanoseconds: now)
        now += 16_666_667
    }
}

for (row, path) in CommandLine.arguments.dropFirst().enumerated() {
    let name = URL(fileURLWithPath: path).lastPathComponent
    try view.animate(with: AnimatedImage(contentsOf: URL(fileURLWithPath: path)))
    refresh(for: 15)
    print("row \(row) \(name): animating \(view.isAnimating), frame \(view.display.currentFrameIndex.map(String.init) ?? "still")")
    view.stopAnimating()
    refresh(for: 30)
    print("row \(row) \(name): stopped, animating \(view.isAnimating), frame \(view.display.currentFrameIndex.map(String.init) ?? "still")")
    view.startAnimating()
    refresh(for: 10)
    print("row \(row) \(name): resumed, animating \(view.isAnimating), frame \(view.display.currentFrameIndex.map(String.init) ?? "still")")
    view.prepareForReuse()
    print("row \(row) reused: player \(view.player == nil ? "released" : "kept"), display \(view.display.currentFrame == nil ? "empty" : "not empty")")
}
attachment.cancel()
