// A loading view over the API: a @MainActor view that owns its player and
// is its display, loaded through AnimatedImageLoader from a server at `base`.
import Foundation
import ZoetropeCodecs

@MainActor final class BannerView: AnimationDisplay {     // the view owns its player and is its display
    var player: AnimationPlayer?
    var shown: [Int] = []
    var firstShownAt: Date?
    var isVisible = true
    func show(_ frame: PixelBuffer, index: Int) {
        if firstShownAt == nil { firstShownAt = Date() }
        shown.append(index)
    }
}

@MainActor func loadingDemo(base: URL, cacheFolder: URL) async throws {
    CoderRegistry.shared.registerBuiltInCoders()
    let loader = AnimatedImageLoader(configuration: .init(
        memoryCacheLimit: 64 << 20,                                      // bytes; an image costs its poster plus its encoded data
        diskCache: .init(folder: cacheFolder, sizeLimit: 256 << 20)))    // responses kept across launches, least recently used evicted

    // Eight views ask for one URL at once: one download, one decode, the same image for all.
    let banner = base.appendingPathComponent("banner.webp")
    let images = try await withThrowingTaskGroup(of: AnimatedImage.self) { group in
        for _ in 0..<8 { group.addTask { try await loader.image(for: banner) } }
        var all: [AnimatedImage] = []
        for try await image in group { all.append(image) }
        return all
    }
    print("IMAGES", images.count, images[0].info.frameCount)
    print("CACHED", loader.cachedImage(for: banner) != nil)             // a memory-cache hit, no network

    // A still JPEG comes back through the same call, as a one-frame image.
    let photo = try await loader.image(for: base.appendingPathComponent("photo.jpg"))
    print("STILL", photo.info.format.identifier, photo.info.frameCount)

    // Cancelling one request leaves the others: the one download goes on for them.
    let bigURL = base.appendingPathComponent("big.gif")
    let cancelled = Task { try await loader.image(for: bigURL) }
    let kept = Task { try await loader.image(for: bigURL) }
    try await Task.sleep(for: .milliseconds(50))
    cancelled.cancel()
    var cancelError = "none"
    do { _ = try await cancelled.value } catch is CancellationError { cancelError = "CancellationError" } catch { cancelError = "\(error)" }
    print("CANCEL", cancelError, try await kept.value.info.frameCount)

    // The memory cache holds what its limit allows, least recently used evicted first.
    let small = AnimatedImageLoader(configuration: .init(memoryCacheLimit: 4 << 20, diskCache: nil))
    for name in ["a.gif", "b.gif", "c.gif"] { _ = try await small.image(for: base.appendingPathComponent(name)) }
    print("EVICTED", small.cachedImage(for: base.appendingPathComponent("a.gif")) == nil,
          small.cachedImage(for: base.appendingPathComponent("c.gif")) != nil)

    // Playing while downloading: frames show as their bytes arrive, in order, and the
    // animation loops only once the whole file is in.
    let view = BannerView()
    view.player = try await loader.player(for: base.appendingPathComponent("slow.gif"), display: view)
    view.player?.play()
    while view.shown.count < 40 { try await Task.sleep(for: .milliseconds(20)) }
    view.player?.pause()
    print("STREAMED", view.firstShownAt?.timeIntervalSince1970 ?? 0, view.shown)

    // Errors are typed and say what went wrong.
    do { _ = try await loader.image(for: base.appendingPathComponent("missing.gif")) }
    catch let error as AnimatedImageError { print("ERROR", error.localizedDescription) }

    // A view released with its player is gone: a player does not keep its display alive.
    weak var released: BannerView?
    do {
        let v = BannerView()
        released = v
        v.player = AnimationPlayer(image: images[0], display: v)
        v.player?.play()
    }
    try await Task.sleep(for: .milliseconds(300))
    print("RELEASED", released == nil)
}
