import Foundation
import ZoetropeCodecs
import ZoetropeTestSupport

/// GIFs built in code for the loader's tests, and a folder that removes itself.
enum LoadingFixture {
    static let palette: [GIFWriter.Color] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]

    /// A `side`×`side` GIF, one frame per delay (centiseconds), frame i filled with
    /// palette entry i % 3 + 1, looping forever. With `noise`, every row but the first is
    /// random colours instead, so that the file is about a byte per pixel per frame (a
    /// solid frame compresses to almost nothing).
    static func gif(side: Int = 2, delays: [Int], noise: Bool = false) -> Data {
        var w = GIFWriter(width: side, height: side, globalColors: palette)
        w.loop(0)
        var random = SplitMix64(seed: UInt64(side * 1000 + delays.count))
        for (i, delay) in delays.enumerated() {
            w.graphicControl(delay: delay)
            var indices = Array(repeating: UInt8(i % 3 + 1), count: side * side)
            if noise {
                for p in side..<(side * side) { indices[p] = UInt8(random.next() % 4) }
            }
            w.image(width: side, height: side, indices: indices)
        }
        return Data(w.file)
    }

    /// The RGBA of frame i of `gif(side:delays:)`.
    static func color(ofFrame i: Int) -> [UInt8] {
        let c = palette[i % 3 + 1]
        return [c.r, c.g, c.b, 255]
    }

    /// A registry with every built-in codec, not shared with other tests.
    static func registry() -> CoderRegistry { .withBuiltInCoders() }

    /// A loader for tests: its own registry, no memory-pressure signal, the given caches.
    static func loader(
        memory: Int = 64 << 20, disk: DiskCache.Configuration? = nil, timeout: Duration = .seconds(60),
        limits: Limits = .default, maximumRedirects: Int = 10, maximumResponseBytes: Int = 64 << 20
    ) -> AnimatedImageLoader {
        var options = DecodingOptions.default
        options.limits = limits
        var configuration = AnimatedImageLoader.Configuration(
            memoryCacheLimit: memory, diskCache: disk, registry: registry(),
            decodingOptions: options, timeout: timeout,
            maximumRedirects: maximumRedirects, memoryPressure: nil)
        configuration.maximumResponseBytes = maximumResponseBytes
        return AnimatedImageLoader(configuration: configuration)
    }

    /// Waits (on the caller's actor, up to `seconds`) until `condition` holds.
    static func wait(
        upTo seconds: Double = 300, isolation: isolated (any Actor)? = #isolation,
        _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }
}

/// A folder under the temporary directory, removed when the value goes away.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-loading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
