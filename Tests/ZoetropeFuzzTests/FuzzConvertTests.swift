import Foundation
import Testing
import ZoetropeTestSupport

/// The `convert` fuzz target's harness over the fixture seeds (each converted to every
/// output format) and the corpus, so plain `swift test` checks conversion the way the
/// fuzzer does.
@Suite struct FuzzConvertTests {
    /// The input's length picks the output format, so one to four trailing bytes (after
    /// the file's end, where every decoder stops reading) reach every format.
    @Test func fixtureSeedsConvertToEveryFormat() throws {
        let seeds = try FuzzSeeds.all().filter { ["gif", "png", "webp"].contains($0.family) }
        var converted = 0
        for seed in seeds {
            for extra in 0..<FuzzEncoding.Format.allCases.count {
                let outcome = FuzzTarget.convert.run(seed.data + Data(repeating: 0, count: extra))
                #expect(outcome.isAcceptable, "\(seed.name) + \(extra) bytes: \(outcome)")
                if outcome.opened && outcome.firstError == nil { converted += 1 }
            }
        }
        #expect(converted > seeds.count * 3)
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func corpusFilesWholeAndCutAreHandled() throws {
        var converted = 0
        for (n, file) in CorpusFile.all.enumerated() {
            let data = try Data(contentsOf: file.url)
            // Whole, and (for every fourth file) cut in the middle.
            for cut in n % 4 == 0 ? [data.count, data.count / 2] : [data.count] {
                let outcome = FuzzTarget.convert.run(data.prefix(cut))
                #expect(outcome.isAcceptable, "\(file.url.lastPathComponent) cut at \(cut): \(outcome)")
                if cut == data.count && outcome.opened && outcome.firstError == nil { converted += 1 }
            }
        }
        // Most files are valid and within the fuzz limits.
        #expect(converted > CorpusFile.all.count / 2, "\(converted) of \(CorpusFile.all.count) files converted")
    }
}
