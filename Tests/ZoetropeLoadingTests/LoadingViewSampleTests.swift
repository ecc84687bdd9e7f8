import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@testable import LoadingViewSample

/// The loading view sample, Examples/LoadingViewSample/Sample.swift (its `BannerView` and
/// `loadingDemo(base:cacheFolder:)` are used here); these tests run its
/// lines against a loopback server and check what its comments say, part by part.
@MainActor @Suite(.timeLimit(.minutes(10))) struct LoadingViewSampleTests {
    /// The sample as a whole, as written.
    @Test
    func theSampleRunsAsWritten() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try await loadingDemo(base: server.baseURL, cacheFolder: folder.url)
        #expect(server.requestCount("banner.webp") == 1)
        #expect(server.requestCount("big.gif") == 1)
        #expect(server.requestCount("missing.gif") == 1)
    }

    static func sampleLoader(_ folder: TemporaryFolder) -> AnimatedImageLoader {
        CoderRegistry.shared.registerBuiltInCoders()
        return AnimatedImageLoader(
            configuration: .init(
                memoryCacheLimit: 64 << 20,
                diskCache: .init(folder: folder.url, sizeLimit: 256 << 20)))
    }

    /// "Eight views ask for one URL at once: one download, one decode, the same image for all."
    @Test func eightViewsMakeOneDownload() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let base = server.baseURL
        let folder = try TemporaryFolder()
        let loader = Self.sampleLoader(folder)
        let banner = base.appendingPathComponent("banner.webp")
        let images = try await withThrowingTaskGroup(of: AnimatedImage.self) { group in
            for _ in 0..<8 { group.addTask { try await loader.image(for: banner) } }
            var all: [AnimatedImage] = []
            for try await image in group { all.append(image) }
            return all
        }
        #expect(images.count == 8)
        #expect(images[0].info.frameCount == SampleServer.bannerFrames)
        #expect(images[0].info.format == .webp)
        #expect(loader.cachedImage(for: banner) != nil)
        #expect(server.requestCount("banner.webp") == 1)
        // The response is on disk too: a second loader on the folder (a relaunch) asks nothing.
        _ = try await Self.sampleLoader(folder).image(for: banner)
        #expect(server.requestCount("banner.webp") == 1)
    }

    /// "A still JPEG comes back through the same call, as a one-frame image."
    @Test
    func aStillJPEGIsAOneFrameImage() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let photo = try await Self.sampleLoader(folder).image(for: server.baseURL.appendingPathComponent("photo.jpg"))
        #expect(photo.info.format.identifier == "jpeg")
        #expect(photo.info.frameCount == 1)
        #expect(photo.poster.pixel(x: 7, y: 7) == [128, 128, 128, 255])
    }

    /// "Cancelling one request leaves the others: the one download goes on for them."
    @Test func cancellingOneRequestLeavesTheOther() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let loader = Self.sampleLoader(folder)
        let bigURL = server.baseURL.appendingPathComponent("big.gif")
        let cancelled = Task { try await loader.image(for: bigURL) }
        let kept = Task { try await loader.image(for: bigURL) }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        var cancelError = "none"
        do { _ = try await cancelled.value } catch is CancellationError { cancelError = "CancellationError" } catch { cancelError = "\(error)" }
        #expect(cancelError == "CancellationError")
        #expect(try await kept.value.info.frameCount == 20)
        #expect(server.requestCount("big.gif") == 1)
    }

    /// "The memory cache holds what its limit allows, least recently used evicted first."
    @Test func theMemoryCacheEvictsTheLeastRecentlyUsed() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let base = server.baseURL
        CoderRegistry.shared.registerBuiltInCoders()
        let small = AnimatedImageLoader(configuration: .init(memoryCacheLimit: 4 << 20, diskCache: nil))
        for name in ["a.gif", "b.gif", "c.gif"] { _ = try await small.image(for: base.appendingPathComponent(name)) }
        #expect(small.cachedImage(for: base.appendingPathComponent("a.gif")) == nil)
        #expect(small.cachedImage(for: base.appendingPathComponent("b.gif")) != nil)
        #expect(small.cachedImage(for: base.appendingPathComponent("c.gif")) != nil)
    }

    /// "Playing while downloading: frames show as their bytes arrive, in order, and the
    /// animation loops only once the whole file is in." The server holds the second half
    /// of slow.gif until the view has shown a frame, so the first frame can only have come
    /// from the first half.
    @Test func framesShowWhileTheFileDownloads() async throws {
        let gate = LoopbackGate()
        let server = try await SampleServer.start(slowGate: gate)
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let loader = Self.sampleLoader(folder)
        let view = BannerView()
        let opener = Task { @MainActor in
            try await LoadingFixture.wait { view.firstShownAt != nil }
            gate.open()
        }
        view.player = try await loader.player(for: server.baseURL.appendingPathComponent("slow.gif"), display: view)
        view.player?.play()
        try await LoadingFixture.wait { view.shown.count >= 40 }
        view.player?.pause()
        try await opener.value
        // Frames already on their way still arrive; a main actor blocked for more than eight
        // frames skips the oldest waiting ones, and the player counts them.
        let player = try #require(view.player)
        try await LoadingFixture.wait {
            let d = player.diagnostics
            return view.shown.count + d.framesSkippedByDisplay == d.framesShown
        }
        let shown = view.shown, diagnostics = player.diagnostics
        #expect(shown.count >= 40)
        #expect(diagnostics.skippedFrames == 0)
        #expect(
            DisplayOrder.violations(
                shown: shown, frameCount: SampleServer.slowFrames, produced: diagnostics.framesShown,
                skipped: diagnostics.framesSkippedByDisplay) == [], "\(shown)")
        let completed = try #require(server.bodyCompletedAt("slow.gif"))
        let firstShown = try #require(view.firstShownAt)
        #expect(firstShown < completed, "the first frame showed before the last byte was sent")
        // The whole file reaches the memory cache once its last byte is in and decoded.
        try await LoadingFixture.wait { loader.cachedImage(for: server.baseURL.appendingPathComponent("slow.gif")) != nil }
        #expect(loader.cachedImage(for: server.baseURL.appendingPathComponent("slow.gif"))?.info.frameCount == SampleServer.slowFrames)
    }

    /// "Errors are typed and say what went wrong."
    @Test func aMissingFileIsATypedErrorNamingTheStatus() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let loader = Self.sampleLoader(folder)
        let missing = server.baseURL.appendingPathComponent("missing.gif")
        var message = "none"
        do { _ = try await loader.image(for: missing) } catch let error as AnimatedImageError { message = error.localizedDescription }
        #expect(message == "\(missing.absoluteString): the server answered HTTP 404 (Not Found)")
    }

    /// "A view released with its player is gone: a player does not keep its display alive."
    @Test
    func aReleasedViewIsFreed() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let image = try await Self.sampleLoader(folder).image(for: server.baseURL.appendingPathComponent("banner.webp"))
        weak var released: BannerView?
        do {
            let v = BannerView()
            released = v
            v.player = AnimationPlayer(image: image, display: v)
            v.player?.play()
        }
        try await LoadingFixture.wait { released == nil }
        #expect(released == nil)
    }
}
