import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

/// Runs `../shared/corpus` in-process through the built-in registry, folder by folder.
/// Skipped, with a printed note, when the corpus is absent.
@Suite struct CorpusConformanceTests {
    static let registry = CoderRegistry(builtIn: [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder()])

    /// Cases whose corpus expectation Zoetrope deliberately does not meet, with the argument.
    static let knownDisagreements: [String: String] = [
        // LZW minimum code size 11: GIF89a ties it to the pixel depth (at most 8); giflib
        // refuses it in its decompress setup and Chromium's decoder rejects it too.
        "gif/pygif/max-codes": "LZW code size above 8 is invalid data",
    ]

    static let harness = ConformanceHarness(registry: registry) { png in
        try APNGCoder().makeFrameSource(data: png, options: DecodingOptions(limits: .none)).decodeFrame(at: 0)
    }

    @Test(arguments: ["gif/pygif", "apng/pillow", "webp/image-webp", "avif/libavif", "avif/avif-sample-images"])
    func corpusFolder(_ folder: String) throws {
        guard let root = CorpusLocation.corpus() else { return }
        let (checked, failures) = try Self.harness.failures(in: root, under: folder)
        let unexpected = failures.filter { f in !Self.knownDisagreements.keys.contains { f.hasPrefix($0 + ":") } }
        print("conformance \(folder): \(checked - failures.count) passed, \(failures.count) failed")
        #expect(checked > 0, "no cases found under \(folder)")
        #expect(unexpected.isEmpty, "\(unexpected.joined(separator: "\n"))")
    }
}
