import Foundation
import Testing
import ZoetropeTestSupport

/// The `incremental` fuzz target over the corpus, whole and cut short: every input is
/// handled with typed errors only, and whole files decode frames.
@Suite struct FuzzIncrementalTests {
    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func corpusFilesWholeAndCutAreHandled() throws {
        let files = CorpusFile.all
        #expect(files.count >= 150)
        var decoded = 0
        for file in files {
            let url = file.url
            let data = try Data(contentsOf: url)
            for cut in [data.count, data.count * 2 / 3, data.count / 3] {
                let outcome = FuzzTarget.incremental.run(data.prefix(cut))
                #expect(outcome.isAcceptable, "\(url.lastPathComponent) cut at \(cut): \(outcome)")
                if cut == data.count { decoded += outcome.framesDecoded }
            }
        }
        #expect(decoded > 300)
    }
}
