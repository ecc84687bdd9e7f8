import Foundation
import Testing
import ZoetropeTestSupport

/// Replays `Fuzz/regressions/<target>/*` — inputs the fuzzers once crashed on, kept after
/// the fix — through the same code the fuzz targets run (`FuzzTarget.run`): each returns or
/// throws `AnimatedImageError`, never traps. Inputs listed in `Fuzz/regressions/pending.txt`
/// (their fix has not landed, so they would still trap and end the run) show as skipped.
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

    /// `TARGET/FILE` of every input listed in `pending.txt`.
    static let pending: Set<String> = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("pending.txt"), encoding: .utf8)) ?? ""
        return Set(
            text.split(separator: "\n").compactMap { line -> String? in
                guard !line.hasPrefix("#"), let first = line.split(separator: " ").first else { return nil }
                return String(first)
            })
    }()

    static let all: [Input] = subfolders().flatMap { sub -> [Input] in
        guard let target = FuzzTarget(rawValue: sub.lastPathComponent) else { return [] }
        let files = (try? FileManager.default.contentsOfDirectory(at: sub, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
            .map { Input(target: target, url: $0) }
    }
    static let inputs = all.filter { !pending.contains($0.testDescription) }
    static let pendingInputs = all.filter { pending.contains($0.testDescription) }

    @Test(arguments: FuzzRegressionTests.inputs)
    func replay(_ input: Input) throws {
        let outcome = input.target.run(try Data(contentsOf: input.url))
        #expect(outcome.isAcceptable, "\(input.testDescription): \(outcome)")
    }

    @Test(
        .disabled("listed in Fuzz/regressions/pending.txt: the fix is on a branch that has not landed"),
        arguments: FuzzRegressionTests.pendingInputs)
    func replayPending(_ input: Input) throws {
        let outcome = input.target.run(try Data(contentsOf: input.url))
        #expect(outcome.isAcceptable, "\(input.testDescription): \(outcome)")
    }

    /// Every line of `pending.txt` names an input that exists.
    @Test func pendingInputsExist() {
        let names = Set(FuzzRegressionTests.all.map(\.testDescription))
        for name in FuzzRegressionTests.pending {
            #expect(names.contains(name), "Fuzz/regressions/pending.txt lists \(name), which is not in Fuzz/regressions")
        }
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
