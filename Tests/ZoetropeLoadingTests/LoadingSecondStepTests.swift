import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

@testable import LoadingViewSample
@testable import ZoetropeLoading

/// The second loading sample, Examples/LoadingViewSample/SecondStep.swift: as written, then
/// what each of its comments says, part by part.
@MainActor @Suite(.timeLimit(.minutes(5))) struct LoadingSecondStepTests {
    @Test func theSampleRunsAsWritten() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try await loadingSecondStep(base: server.baseURL, cacheFolder: folder.url)
        // The thumbnail's download served the full-size request too; offline made no request.
        #expect(server.requestCount("private/banner.webp") == 1)
        #expect(server.requests("private/banner.webp").allSatisfy { $0.header("Authorization") == "Bearer demo" })
        #expect(server.requestCount("banner.webp") == 1)
    }

    static func loader(_ folder: TemporaryFolder, authorized: Bool = true) -> AnimatedImageLoader {
        CoderRegistry.shared.registerBuiltInCoders()
        var configuration = AnimatedImageLoader.Configuration.standard
        configuration.diskCache = .init(folder: folder.url, sizeLimit: 64 << 20)
        configuration.memoryPressure = nil
        if authorized {
            configuration.requestModifier = { request in
                var request = request
                request.setValue("Bearer demo", forHTTPHeaderField: "Authorization")
                return request
            }
        }
        return AnimatedImageLoader(configuration: configuration)
    }

    /// "answers 401 without the header"; the modifier's header makes it answer.
    @Test func thePrivatePathNeedsTheModifiersHeader() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let url = server.url("private/banner.webp")
        await #expect(throws: AnimatedImageError.httpStatus(url: url.absoluteString, status: 401)) {
            try await Self.loader(folder, authorized: false).image(for: ImageRequest(url: url))
        }
        var request = ImageRequest(url: url)
        request.requestModifier = { request in
            var request = request
            request.setValue("Bearer demo", forHTTPHeaderField: "Authorization")
            return request
        }
        let image = try await Self.loader(folder, authorized: false).image(for: request)
        #expect(image.info.frameCount == SampleServer.bannerFrames)
    }

    /// "What varies per view travels with the request": two sizes from one download and one
    /// disk entry, each its own decode, each cached under its own options.
    @Test func twoSizesShareOneDownload() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let loader = Self.loader(folder)
        let url = server.url("private/banner.webp")
        var thumbnail = ImageRequest(url: url)
        thumbnail.decodingOptions.targetSize = PixelSize(width: 16, height: 16)
        async let small = loader.image(for: thumbnail)
        async let full = loader.image(for: ImageRequest(url: url))
        let (s, f) = try await (small, full)
        #expect(s.poster.size == PixelSize(width: 16, height: 16))
        #expect(f.poster.size == PixelSize(width: 32, height: 32))
        #expect(server.requestCount("private/banner.webp") == 1)
        #expect(loader.cachedImage(for: thumbnail)?.poster.size == PixelSize(width: 16, height: 16))
        #expect(loader.cachedImage(for: ImageRequest(url: url))?.poster.size == PixelSize(width: 32, height: 32))
        // A third size later: decoded again from the bytes in memory, no request.
        var middle = ImageRequest(url: url)
        middle.decodingOptions.targetSize = PixelSize(width: 24, height: 24)
        #expect(try await loader.image(for: middle).poster.size == PixelSize(width: 24, height: 24))
        #expect(server.requestCount("private/banner.webp") == 1)
    }

    /// "Offline: memory or disk, never the network": a cache-only miss is a typed error and
    /// makes no request; after one load, a new loader over the folder answers from disk.
    @Test func cacheOnlyNeverAsksTheNetwork() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let url = server.url("private/banner.webp")
        var offline = ImageRequest(url: url)
        offline.cachePolicy = .cacheOnly
        await #expect(throws: AnimatedImageError.notCached(url: url.absoluteString)) {
            try await Self.loader(folder).image(for: offline)
        }
        #expect(server.requestCount("private/banner.webp") == 0)
        _ = try await Self.loader(folder).image(for: ImageRequest(url: url))
        #expect(try await Self.loader(folder).image(for: offline).info.frameCount == SampleServer.bannerFrames)
        #expect(server.requestCount("private/banner.webp") == 1)
        // reloadIgnoringCache asks again although the entry is fresh.
        var reload = ImageRequest(url: url)
        reload.cachePolicy = .reloadIgnoringCache
        _ = try await Self.loader(folder).image(for: reload)
        #expect(server.requestCount("private/banner.webp") == 2)
    }

    /// "views showing the same request share one decoder": six views, one player, one
    /// download, every view shown frames; a memory hit shows the poster before `load` returns.
    @Test func sixViewsShareOnePlayer() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let loader = Self.loader(folder)
        let url = server.url("banner.webp")
        let views = (0..<6).map { _ in Banner() }
        for view in views { loader.load(url, into: view) }
        #expect(loader.views.counts == (playbacks: 1, displays: 6))
        try await LoadingFixture.wait { views.allSatisfy { $0.shown.count >= 2 } }
        #expect(server.requestCount("banner.webp") == 1)
        #expect(loader.views.counts.playbacks == 1)
        // A memory hit is shown at once (the whole body goes to the memory cache once it is in).
        try await LoadingFixture.wait { loader.cachedImage(for: url) != nil }
        let late = Banner()
        loader.load(url, into: late)
        #expect(late.shown == [0])
        // Loading something else into a view leaves the shared player; the last one out stops it.
        for view in views + [late] { loader.cancelLoad(for: view) }
        #expect(loader.views.counts == (playbacks: 0, displays: 0))
    }

    /// A failure shows the failure image and calls the completion with the error.
    @Test func aFailureShowsTheFailureImage() async throws {
        let server = try await SampleServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let loader = Self.loader(folder)
        let url = server.url("missing.gif")
        let view = Banner()
        let failure = PixelBuffer(width: 1, height: 1)
        let outcome = Locked<(any Error)?>(nil)
        loader.load(
            url, into: view,
            options: ViewLoadOptions(
                failureImage: failure,
                completion: { result in
                    if case .failure(let error) = result { outcome.withLock { $0 = error } }
                }))
        try await LoadingFixture.wait { outcome.withLock { $0 != nil } }
        #expect(view.shown == [-1])
        #expect(outcome.withLock { $0 as? AnimatedImageError } == .httpStatus(url: url.absoluteString, status: 404))
    }

    /// "A player told that its display is gone says so instead of going quiet."
    @Test func aPlayerWhoseDisplayIsGoneSaysSo() async throws {
        let image = try AnimatedImage(data: LoadingFixture.gif(side: 8, delays: [10, 10]), registry: LoadingFixture.registry())
        let player = AnimationPlayer(image: image, display: Banner())
        let events = player.events
        player.play()
        var released = false
        for await event in events where event == .displayReleased {
            released = true
            break
        }
        #expect(released)
        #expect(player.state == .stopped)
    }
}
