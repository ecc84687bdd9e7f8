import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@Suite(.timeLimit(.minutes(10))) struct LoaderStreamingTests {
    /// The player comes back while most of the file is still on the server: the first
    /// frame is shown with less than half the bytes sent, the frames play in order as
    /// they arrive, and the animation loops only once the whole file is in. The finished
    /// bytes reach both caches.
    @MainActor @Test func aPlayerShowsTheFirstFrameBeforeHalfTheBytesAreSent() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let frames = 8
        let gif = LoadingFixture.gif(side: 64, delays: Array(repeating: 2, count: frames), noise: true)
        let gate = LoopbackGate()
        var response = LoopbackHTTPResponse.ok(gif, headers: [("Cache-Control", "max-age=600")])
        response.holdAfter = gif.count * 4 / 10
        response.gate = gate
        server.serve("slow.gif", response)
        let folder = try TemporaryFolder()
        let disk = DiskCache.Configuration(folder: folder.url, sizeLimit: 64 << 20)
        let loader = LoadingFixture.loader(disk: disk)

        let view = RecordingView { server.bodyBytesSent("slow.gif") }
        let player = try await loader.player(for: server.url("slow.gif"), display: view)
        #expect(!gate.isOpen)
        player.play()
        try await LoadingFixture.wait { !view.shown.isEmpty }
        #expect(view.shown.first == 0)
        let sentAtFirstFrame = try #require(view.probedAtFirstFrame)
        #expect(sentAtFirstFrame < gif.count / 2, "\(sentAtFirstFrame) of \(gif.count) bytes sent")

        gate.open()
        // Played to the last frame and round to frame 0 again.
        try await LoadingFixture.wait { (view.shown.firstIndex(of: frames - 1).map { view.shown[$0...].contains(0) }) ?? false }
        player.pause()
        // Frames already on their way still arrive; a main actor blocked for more than eight
        // frames skips the oldest waiting ones, and the player counts them.
        try await LoadingFixture.wait {
            let d = player.diagnostics
            return view.shown.count + d.framesSkippedByDisplay == d.framesShown
        }
        let shown = view.shown, diagnostics = player.diagnostics
        #expect(diagnostics.skippedFrames == 0)
        #expect(
            DisplayOrder.violations(
                shown: shown, frameCount: frames, produced: diagnostics.framesShown,
                skipped: diagnostics.framesSkippedByDisplay) == [], "\(shown)")
        for (index, pixel) in zip(shown, view.topLeft) { #expect(pixel == LoadingFixture.color(ofFrame: index)) }
        #expect(player.info.frameCount == frames)

        // The player loops as soon as the stream ends; the decoded image reaches the
        // memory cache after the disk entry is written, a moment later.
        try await LoadingFixture.wait { loader.cachedImage(for: server.url("slow.gif")) != nil }
        #expect(loader.cachedImage(for: server.url("slow.gif"))?.data == gif)
        let second = LoadingFixture.loader(disk: disk)
        #expect(try await second.image(for: server.url("slow.gif")).data == gif)
        #expect(server.requestCount("slow.gif") == 1)
    }

    /// A player asked for while `image(for:)` downloads the same URL joins that download.
    @MainActor @Test func aPlayerAndAnImageRequestShareOneDownload() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 64, delays: [5, 5, 5, 5], noise: true)
        let gate = LoopbackGate()
        var response = LoopbackHTTPResponse.ok(gif)
        response.holdAfter = gif.count / 2
        response.gate = gate
        server.serve("a.gif", response)
        let loader = LoadingFixture.loader()
        let url = server.url("a.gif")
        let image = Task { try await loader.image(for: url) }
        try await LoadingFixture.wait { server.bodyBytesSent("a.gif") > 0 }
        let view = RecordingView()
        let player = try await loader.player(for: url, display: view)
        #expect(!gate.isOpen)
        gate.open()
        #expect(try await image.value.data == gif)
        player.play()
        try await LoadingFixture.wait { view.shown.contains(3) }
        player.pause()
        #expect(Array(view.shown.prefix(4)) == [0, 1, 2, 3])
        #expect(server.requestCount("a.gif") == 1)
    }

    /// From the memory cache, a player needs no request and knows every frame at once.
    @MainActor @Test func aCachedImageGivesAWholeImagePlayer() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serve("a.gif", .ok(LoadingFixture.gif(delays: [10, 10, 10])))
        let loader = LoadingFixture.loader()
        _ = try await loader.image(for: server.url("a.gif"))
        let player = try await loader.player(for: server.url("a.gif"), display: RecordingView())
        #expect(player.info.frameCount == 3)
        #expect(server.requestCount("a.gif") == 1)
    }

    /// A player dropped before its file is in stops the download: the client closes the
    /// connection the server is holding.
    @MainActor @Test func droppingThePlayerStopsItsDownload() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = LoadingFixture.gif(side: 64, delays: [5, 5, 5, 5], noise: true)
        var response = LoopbackHTTPResponse.ok(gif)
        response.holdAfter = gif.count / 2  // never released
        server.serve("a.gif", response)
        let loader = LoadingFixture.loader()
        var player: AnimationPlayer? = try await loader.player(for: server.url("a.gif"), display: RecordingView())
        #expect(player?.info.frameCount ?? 0 >= 1)
        #expect(server.openConnectionCount == 1)
        player = nil
        try await LoadingFixture.wait { server.openConnectionCount == 0 }
        #expect(server.openConnectionCount == 0)
        #expect(loader.cachedImage(for: server.url("a.gif")) == nil)
    }

    /// A still PNG comes back through the same calls, as a one-frame image.
    @MainActor @Test func aStillImageIsAOneFrameImage() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let png = APNGWriter.stillPNG(width: 3, height: 2, rgba: Array(repeating: [10, 20, 30, 255], count: 6).flatMap { $0 })
        server.serve("photo.png", .ok(png))
        let loader = LoadingFixture.loader()
        let image = try await loader.image(for: server.url("photo.png"))
        #expect(image.info.format == .png)
        #expect(image.info.frameCount == 1)
        #expect(image.poster.pixel(x: 2, y: 1) == [10, 20, 30, 255])
        let other = LoadingFixture.loader()
        let view = RecordingView()
        let player = try await other.player(for: server.url("photo.png"), display: view)
        player.play()
        try await LoadingFixture.wait { !view.shown.isEmpty }
        #expect(view.shown.first == 0)
        #expect(player.info.frameCount == 1)
    }
}
