import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// Runs the shared conformance corpus's GIF cases through `GIFCoder` with the shared
/// `ConformanceHarness`: sizes, frame counts, plays, raw and display durations, every frame
/// decoding, pixel checks and rejections (the reference PNGs need a PNG decoder, so the
/// conformance target compares those). Skipped when the corpus is absent; `mayFail` cases
/// (max-codes, invalid-colors: browsers disagree) pass when rejected.
@Suite struct GIFCorpusTests {
    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func corpusCasesMatchTheirExpectations() throws {
        let root = try #require(CorpusLocation.corpus())
        let harness = ConformanceHarness(registry: CoderRegistry(builtIn: [GIFCoder()]), referenceDecoder: nil)
        let (checked, failures) = try harness.failures(in: root, under: "gif/pygif")
        print("checking \(checked) GIF corpus cases in \(root.path)/gif/pygif")
        #expect(checked == 84)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
