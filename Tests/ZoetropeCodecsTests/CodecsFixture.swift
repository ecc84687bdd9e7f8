import Foundation
import ZoetropeCodecs
import ZoetropeTestSupport

/// Small GIFs built in code, and temporary folders that remove themselves.
enum CodecsFixture {
    /// Index 0 black, 1 red, 2 green, 3 blue.
    static let palette: [GIFWriter.Color] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]

    /// A 2×2 GIF, one frame per delay (centiseconds), frame i filled with palette entry
    /// i % 3 + 1 (red, green, blue, red, ...), looping forever.
    static func gif(delays: [Int]) -> Data {
        var w = GIFWriter(width: 2, height: 2, globalColors: palette)
        w.loop(0)
        for (i, delay) in delays.enumerated() {
            w.graphicControl(delay: delay)
            w.image(width: 2, height: 2, indices: Array(repeating: UInt8(i % 3 + 1), count: 4))
        }
        return Data(w.file)
    }

    /// The RGBA of frame i of `gif(delays:)`.
    static func color(ofFrame i: Int) -> [UInt8] {
        let c = palette[i % 3 + 1]
        return [c.r, c.g, c.b, 255]
    }

    /// A registry with every built-in codec, not shared with other tests.
    static func registry() -> CoderRegistry { .withBuiltInCoders() }
}

/// A folder under the temporary directory, removed when the value goes away.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-codecs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `data` at `name` (sub-folders created) and returns its URL.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
