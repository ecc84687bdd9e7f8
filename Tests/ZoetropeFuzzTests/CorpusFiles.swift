import Foundation
import Testing
import ZoetropeTestSupport

/// The image files of `../shared/corpus`, each with the coder target of its folder.
struct CorpusFile: Sendable, CustomTestStringConvertible {
    var target: FuzzTarget
    /// The path below the corpus folder, e.g. `gif/pygif/comment.gif`.
    var name: String
    var url: URL

    var testDescription: String { name }

    /// The corpus's format folders and the target each goes through.
    static let folders: [(folder: String, target: FuzzTarget)] = [("gif", .gif), ("apng", .apng), ("webp", .webp), ("avif", .avif)]
    static let extensions: Set<String> = ["gif", "png", "apng", "webp", "avif", "avifs"]

    /// Every image file (expected frames under `*.frames/` excluded), in a stable order;
    /// empty when the corpus is absent.
    static let all: [CorpusFile] = {
        guard let root = CorpusLocation.corpus() else { return [] }
        var files: [CorpusFile] = []
        for (folder, target) in folders {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker
            where extensions.contains(url.pathExtension.lowercased()) && !url.path.contains(".frames/") {
                let name = folder + url.path.dropFirst(base.path.count)
                files.append(CorpusFile(target: target, name: name, url: url))
            }
        }
        return files.sorted { $0.name < $1.name }
    }()

    static var isPresent: Bool { !all.isEmpty }
}
