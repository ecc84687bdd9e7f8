import Foundation
import ZoetropeCodecs

// The loader's request features, offline use, the one-call view binding, and a player
// that says its display is gone. Run against the same server as Sample.swift, which also
// answers private/banner.webp, but only with the `Authorization: Bearer demo` header.

@MainActor final class Banner: AnimationDisplay {
    var shown: [Int] = []
    var isVisible = true
    func show(_ frame: PixelBuffer, index: Int) { shown.append(index) }
}

@MainActor func loadingSecondStep(base: URL, cacheFolder: URL) async throws {
    CoderRegistry.shared.registerBuiltInCoders()
    var configuration = AnimatedImageLoader.Configuration.standard
    configuration.diskCache = .init(folder: cacheFolder, sizeLimit: 64 << 20)  // may be any folder: the cache touches only what it wrote
    configuration.maximumResponseBytes = 16 << 20                              // no download holds more, whatever the server sends
    configuration.requestModifier = { request in                               // every request: auth, cookies, user agent
        var request = request
        request.setValue("Bearer demo", forHTTPHeaderField: "Authorization")
        return request
    }
    let loader = AnimatedImageLoader(configuration: configuration)

    // What varies per view travels with the request: a size, a priority, a cache policy.
    let url = base.appendingPathComponent("private/banner.webp")           // answers 401 without the header
    var thumbnail = ImageRequest(url: url)
    thumbnail.decodingOptions.targetSize = PixelSize(width: 189, height: 76)
    thumbnail.priority = .high
    let small = try await loader.image(for: thumbnail)
    let full = try await loader.image(for: ImageRequest(url: url))              // same download and disk entry, its own decode
    print("SIZES", small.poster.size, full.poster.size)

    // Offline: memory or disk, never the network.
    let fresh = AnimatedImageLoader(configuration: configuration)               // a new memory cache over the same folder
    var offline = ImageRequest(url: url)
    offline.cachePolicy = .cacheOnly
    print("OFFLINE", try await fresh.image(for: offline).info.frameCount)

    // One call per view: cancels what the view asked for before, shows a memory hit at once,
    // streams while downloading, plays while the view is visible; views showing the same
    // request share one decoder.
    let views = (0..<6).map { _ in Banner() }
    for view in views { loader.load(base.appendingPathComponent("banner.webp"), into: view) }
    try await Task.sleep(for: .seconds(2))
    print("SHOWN", views.map(\.shown.count))

    // A player told that its display is gone says so instead of going quiet.
    let player = AnimationPlayer(image: full, display: Banner())               // nothing else holds this display
    let events = player.events                                                 // subscribed before it plays
    player.play()
    let released = Task { for await event in events where event == .displayReleased { return true }; return false }
    try await Task.sleep(for: .milliseconds(500))
    released.cancel()
    print("RELEASED", await released.value)
}
