import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

/// A view that owns its player (or its content controller) and is its display.
@MainActor final class OwningView: AnimationDisplay {
    var player: AnimationPlayer?
    var controller: AnimatedContentController?
    let shows: ShowCounter
    var isVisible = true

    init(shows: ShowCounter) { self.shows = shows }

    func show(_ frame: PixelBuffer, index: Int) { shows.count += 1 }
}

/// Counts a view's `show` calls, and outlives it.
@MainActor final class ShowCounter {
    var count = 0
}

/// Players never keep their display alive: a view that owns its player (or its
/// `AnimatedContentController`) and is its display is freed when the application drops it,
/// and its player stops — no more `show` calls, the clock subscription released — for every
/// way a player is made.
@Suite struct DisplayOwnershipTests {
    enum Made: String, CaseIterable {
        case source, image, incremental, url, controller
    }

    @MainActor @Test(arguments: Made.allCases)
    func aViewThatOwnsItsPlayerIsFreedWhenDropped(_ made: Made) async throws {
        let gif = CodecsFixture.gif(delays: [2, 2, 2])
        let registry = CodecsFixture.registry()
        let clock = TimerClock()
        defer { clock.invalidate() }
        let shows = ShowCounter()
        var server: LoopbackHTTPServer?
        defer { server?.stop() }
        var view: OwningView? = OwningView(shows: shows)
        weak let weakView = view
        weak var weakPlayer: AnimationPlayer?
        do {
            let v = try #require(view)
            let player: AnimationPlayer
            switch made {
            case .source:
                player = AnimationPlayer(source: try registry.makeFrameSource(data: gif), clock: clock, display: v)
            case .image:
                player = AnimationPlayer(image: try AnimatedImage(data: gif, registry: registry), display: v, clock: clock)
            case .incremental:
                let session = try #require(try registry.makeIncrementalSource(prefix: gif.prefix(20)))
                try session.append(gif.dropFirst(20))
                player = AnimationPlayer(incrementalSource: session, clock: clock, display: v)
            case .url:
                let s = try LoopbackHTTPServer()
                s.serve("/spinner.gif", .ok(gif))
                server = s
                let image = try await AnimatedImage.load(from: s.url("/spinner.gif"), registry: registry)
                player = AnimationPlayer(image: image, display: v, clock: clock)
            case .controller:
                player = AnimationPlayer(image: try AnimatedImage(data: gif, registry: registry), clock: clock)
                let controller = AnimatedContentController(display: v)
                v.controller = controller
                controller.setAnimation(player)
            }
            if made != .controller { v.player = player }
            weakPlayer = player
            player.play()
        }
        #expect(await waitFor { shows.count >= 3 }, "\(made): playing")
        #expect(clock.subscriberCount == 1)
        view = nil
        #expect(await waitFor { weakView == nil }, "\(made): the view is freed")
        #expect(await waitFor { weakPlayer == nil && clock.subscriberCount == 0 }, "\(made): its player is freed and left the clock")
        let count = shows.count
        try await Task.sleep(for: .milliseconds(100))
        #expect(shows.count == count)
    }

    /// A player someone else keeps stops once its display is freed, and leaves the clock.
    @MainActor @Test func aPlayerWhoseDisplayIsFreedStops() async throws {
        let clock = TimerClock()
        defer { clock.invalidate() }
        let shows = ShowCounter()
        var view: OwningView? = OwningView(shows: shows)
        weak let weakView = view
        let player = AnimationPlayer(
            source: try CodecsFixture.registry().makeFrameSource(data: CodecsFixture.gif(delays: [2, 2, 2])),
            clock: clock, display: view)
        player.play()
        #expect(await waitFor { shows.count >= 3 })
        view = nil
        #expect(await waitFor { weakView == nil })
        #expect(await waitFor { player.state == .stopped && clock.subscriberCount == 0 })
        #expect(player.display == nil)
    }
}
