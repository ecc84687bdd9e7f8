import Foundation
import ZoetropeCodecs
import ZoetropeTestSupport

/// GIFs built in code for the loader's tests, and a folder that removes itself.
enum LoadingFixture {
    static let palette: [GIFWriter.Color] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]

    /// A `side`×`side` GIF, one frame per delay (centiseconds), frame i filled with
    /// palette entry i % 3 + 1, looping forever. Frames are stored uncompressed-ish (one
    /// LZW code per pixel), so a bigger side makes a bigger file.
    static func gif(side: Int = 2, delays: [Int]) -> Data {
        var w = GIFWriter(width: side, height: side, globalColors: palette)
        w.loop(0)
        for (i, delay) in delays.enumerated() {
            w.graphicControl(delay: delay)
            w.image(width: side, height: side, indices: Array(repeating: UInt8(i % 3 + 1), count: side * side))
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
    static func loader(memory: Int = 64 << 20, disk: DiskCache.Configuration? = nil, timeout: Duration = .seconds(60),
                       limits: Limits = .default, maximumRedirects: Int = 10) -> AnimatedImageLoader {
        var options = DecodingOptions.default
        options.limits = limits
        return AnimatedImageLoader(configuration: .init(memoryCacheLimit: memory, diskCache: disk, registry: registry(),
                                                        decodingOptions: options, timeout: timeout,
                                                        maximumRedirects: maximumRedirects, memoryPressure: nil))
    }

    /// Waits (on the caller's actor, up to `seconds`) until `condition` holds.
    static func wait(upTo seconds: Double = 60, _ condition: () -> Bool) async throws {
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
