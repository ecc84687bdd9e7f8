import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

/// Runs `../shared/corpus` in-process through the built-in registry, folder by folder.
/// Skipped when the corpus is absent. Cases marked `mayFail` (browsers disagree) pass when
/// rejected, and must match when decoded.
@Suite struct CorpusConformanceTests {
    static let registry = CoderRegistry(builtIn: [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder()])

    static let harness = ConformanceHarness(registry: registry) { png in
        try APNGCoder().makeFrameSource(data: png, options: DecodingOptions(limits: .none)).decodeFrame(at: 0)
    }

    @Test(
        .enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"),
        arguments: ["gif/pygif", "apng/pillow", "webp/image-webp", "avif/libavif", "avif/avif-sample-images"])
    func corpusFolder(_ folder: String) throws {
        let root = try #require(CorpusLocation.corpus())
        let (checked, failures) = try Self.harness.failures(in: root, under: folder)
        print("conformance \(folder): \(checked - failures.count) passed, \(failures.count) failed")
        #expect(checked > 0, "no cases found under \(folder)")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
