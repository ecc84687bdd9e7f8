import Foundation

/// Finds the shared conformance corpus: `$ZOETROPE_CORPUS`, else `../shared/corpus`
/// beside the package root (where CI lays it out).
public enum CorpusLocation {
    /// The package root: the nearest folder above this file that holds a `Package.swift`
    /// (so moving this file within the tree does not move the root).
    public static var packageRoot: URL {
        let file = URL(fileURLWithPath: #filePath)
        var folder = file.deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return file.deletingLastPathComponent()
    }

    /// The corpus folder, or nil (with a printed note) when it is absent.
    public static func corpus() -> URL? {
        let env = ProcessInfo.processInfo.environment["ZOETROPE_CORPUS"]
        let url =
            env.map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else {
            print("note: conformance corpus not found at \(url.path); corpus checks SKIPPED")
            return nil
        }
        return url
    }

    /// Whether the corpus is present: for `.enabled(if: CorpusLocation.isPresent)`, so a
    /// test without it shows as skipped, never as passed.
    public static var isPresent: Bool { corpus() != nil }

    /// A file in the corpus by its path inside it, or nil when the corpus or the file is absent.
    public static func file(_ relativePath: String) -> URL? {
        guard let url = corpus()?.appendingPathComponent(relativePath),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }
}
