import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// The shared conformance corpus's WebP cases, decoded through `WebPCoder` and checked
/// against their `CASE.expect.json` (size, frames, durations, plays) and, pixel for pixel,
/// against libwebp's own `WebPAnimDecoder`. (The reference PNGs are checked by
/// `check_expectations.py` through the tool.) Shows as skipped when the corpus is absent.
@Suite struct WebPCorpusTests {
    static func cases(in root: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent("webp"), includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "webp" }.sorted { $0.path < $1.path }
    }

    @Test(.enabled(if: CorpusLocation.isPresent, "../shared/corpus is absent"))
    func corpusCasesMatchTheirExpectations() throws {
        let root = try #require(CorpusLocation.corpus())
        let harness = ConformanceHarness(registry: CoderRegistry(builtIn: [WebPCoder()]), referenceDecoder: nil)
        let (checked, failures) = try harness.failures(in: root, under: "webp")
        #expect(checked == Self.cases(in: root).count && checked > 0)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Pixel for pixel against libwebp's own animation decoder.
        for file in Self.cases(in: root) {
            let data = try Data(contentsOf: file)
            let source = try WebPCoder().makeFrameSource(data: data, options: .default)
            let name = file.lastPathComponent
            let reference = try WebPFixture.referenceFrames(data)
            #expect(reference.count == source.info.frameCount)
            for (i, frame) in reference.enumerated() {
                #expect(try source.decodeFrame(at: i).bytes == frame, "\(name) frame \(i)")
            }
        }
    }
}
