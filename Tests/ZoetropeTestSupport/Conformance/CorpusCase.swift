import Foundation
import Zoetrope

/// One `CASE.expect.json` of the conformance corpus, with its input file.
public struct CorpusCase: Sendable, CustomStringConvertible {
    /// The path below the corpus root without `.expect.json`, e.g. `gif/pygif/dispose-keep`.
    public let name: String
    public let input: URL
    public let folder: URL
    public let format: String?
    public let width: Int?
    public let height: Int?
    public let frameCount: Int?
    /// "infinite" or a number, as in the manifest.
    public let plays: String?
    public let durationsMs: [Double]?
    public let frames: [String]
    public let pixelChecks: [PixelCheck]
    public let tolerance: Int
    public let mustFail: Bool
    /// Browsers disagree on this input: rejecting it passes too, but a decode must match.
    public let mayFail: Bool
    public let policy: String

    /// An expected pixel of one frame.
    public struct PixelCheck: Sendable {
        public let frame: Int, x: Int, y: Int
        public let rgba: [UInt8]
    }

    public var description: String { name }

    /// Every case below `root/subfolder`, sorted by name.
    public static func all(in root: URL, under subfolder: String) throws -> [CorpusCase] {
        let base = root.appendingPathComponent(subfolder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var cases: [CorpusCase] = []
        for case let url as URL in walker where url.lastPathComponent.hasSuffix(".expect.json") {
            if let c = try CorpusCase(expectation: url, root: root) { cases.append(c) }
        }
        return cases.sorted { $0.name < $1.name }
    }

    init?(expectation url: URL, root: URL) throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        let stem = String(url.lastPathComponent.dropLast(".expect.json".count))
        let dir = url.deletingLastPathComponent()
        folder = dir
        let inputs = ["gif", "png", "apng", "webp", "avif", "avifs"].map { dir.appendingPathComponent("\(stem).\($0)") }
        guard let input = inputs.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        self.input = input
        let rootPath = root.standardizedFileURL.path
        let full = dir.standardizedFileURL.path + "/" + stem
        name = full.hasPrefix(rootPath + "/") ? String(full.dropFirst(rootPath.count + 1)) : stem
        format = json["format"] as? String
        width = json["width"] as? Int
        height = json["height"] as? Int
        frameCount = json["frameCount"] as? Int
        if let p = json["plays"] { plays = "\(p)" } else { plays = nil }
        durationsMs = (json["durationsMs"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
        frames = json["frames"] as? [String] ?? []
        pixelChecks = (json["pixelChecks"] as? [[String: Any]] ?? []).map {
            PixelCheck(
                frame: $0["frame"] as? Int ?? 0, x: $0["x"] as? Int ?? 0, y: $0["y"] as? Int ?? 0,
                rgba: ($0["rgba"] as? [Int] ?? []).map { UInt8(clamping: $0) })
        }
        tolerance = json["tolerance"] as? Int ?? 0
        mustFail = json["mustFail"] as? Bool ?? false
        mayFail = json["mayFail"] as? Bool ?? false
        policy = json["policy"] as? String ?? ""
    }
}
