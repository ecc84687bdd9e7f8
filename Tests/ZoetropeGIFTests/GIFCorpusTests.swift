import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// Runs the shared conformance corpus's GIF cases through `GIFCoder` with the shared
/// `ConformanceHarness`: sizes, frame counts, plays, raw and display durations, every frame
/// decoding, pixel checks and rejections (the reference PNGs need a PNG decoder, so the
/// conformance target compares those). Skips when the corpus is absent.
@Suite struct GIFCorpusTests {
    /// Cases where this decoder deliberately differs from the expectation (see the report):
    /// max-codes uses an LZW minimum code size of 11, which giflib and Chromium's decoder
    /// (Wuffs, "bad literal width") reject; only sizes up to 8 fit an 8-bit palette.
    static let rejectedOnPurpose: Set<String> = ["gif/pygif/max-codes"]

    @Test func corpusCasesMatchTheirExpectations() throws {
        guard let root = CorpusLocation.corpus() else { return }
        let harness = ConformanceHarness(registry: CoderRegistry(builtIn: [GIFCoder()]), referenceDecoder: nil)
        let (checked, failures) = try harness.failures(in: root, under: "gif/pygif")
        print("checking \(checked) GIF corpus cases in \(root.path)/gif/pygif")
        #expect(checked == 84)
        for name in Self.rejectedOnPurpose {
            #expect(failures.contains { $0.hasPrefix("\(name): decoding failed:") }, "\(name) should be rejected")
        }
        let unexpected = failures.filter { f in !Self.rejectedOnPurpose.contains { f.hasPrefix($0 + ":") } }
        #expect(unexpected.isEmpty, "\(unexpected.joined(separator: "\n"))")
    }
}
