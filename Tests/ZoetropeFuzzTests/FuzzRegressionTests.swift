import Foundation
import Testing
import ZoetropeTestSupport

/// Replays `Fuzz/regressions/<target>/*` — inputs the fuzzers once crashed on, kept after
/// the fix — through the same code the fuzz targets run (`FuzzTarget.run`): each returns or
/// throws `AnimatedImageError`, never traps.
@Suite struct FuzzRegressionTests {
    static let folder = CorpusLocation.packageRoot.appendingPathComponent("Fuzz/regressions")

    struct Input: Sendable, CustomTestStringConvertible {
        var target: FuzzTarget
        var url: URL
        var testDescription: String { "\(target.rawValue)/\(url.lastPathComponent)" }
    }

    static func subfolders() -> [URL] {
        let urls = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        return urls.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.path < $1.path }
    }

    static let inputs: [Input] = subfolders().flatMap { sub -> [Input] in
        guard let target = FuzzTarget(rawValue: sub.lastPathComponent) else { return [] }
        let files = (try? FileManager.default.contentsOfDirectory(at: sub, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
            .map { Input(target: target, url: $0) }
    }

    @Test(arguments: FuzzRegressionTests.inputs)
    func replay(_ input: Input) throws {
        let outcome = input.target.run(try Data(contentsOf: input.url))
        #expect(outcome.isAcceptable, "\(input.testDescription): \(outcome)")
    }

    /// A folder that names no target would be skipped silently.
    @Test func everyFolderNamesATarget() {
        let names = FuzzRegressionTests.subfolders().map(\.lastPathComponent)
        #expect(!names.isEmpty, "no regression folders under \(FuzzRegressionTests.folder.path)")
        for name in names {
            #expect(FuzzTarget(rawValue: name) != nil, "Fuzz/regressions/\(name) is not a fuzz target (\(FuzzTarget.allCases.map(\.rawValue)))")
        }
    }
}
