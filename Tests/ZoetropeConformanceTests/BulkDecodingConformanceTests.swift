import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

/// The bulk path (`BulkFrameDecoder`) against the one-frame path over every file of the
/// corpus, every format: the same frames, byte for byte, and the same error, at 1, 2 and 4
/// threads, and premultiplied and downsampled at 2.
@Suite struct BulkDecodingConformanceTests {
    static let files: [URL] = {
        guard let root = CorpusLocation.corpus() else { return [] }
        let extensions: Set<String> = ["gif", "png", "apng", "webp", "avif", "avifs"]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker
        where extensions.contains(url.pathExtension.lowercased()) && !url.path.contains(".frames/") {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }()

    static func check(_ url: URL, options: DecodingOptions) throws -> BulkDecodingCheck? {
        let data = try Data(contentsOf: url)
        let registry = CorpusConformanceTests.registry
        // Files no coder opens are the conformance suite's business, not this one's.
        guard (try? registry.makeFrameSource(data: data, options: options)) != nil else { return nil }
        return BulkDecodingCheck { try registry.makeFrameSource(data: data, options: options) }
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func everyCorpusFileDecodesTheSameInBulk() throws {
        #expect(Self.files.count > 100)
        var failures: [String] = []
        var parallelRuns = 0
        for url in Self.files {
            guard let check = try Self.check(url, options: .default) else { continue }
            failures += try check.violations().map { "\(url.lastPathComponent): \($0)" }
            // GIF, PNG and WebP animations really run in parallel, not only through the fallback.
            let source = try check.makeSource()
            if source is any ParallelFrameDecoding, source.info.frameCount > 1 {
                parallelRuns += 1
                #expect(try check.bulk(threads: 2).threads == 2, "\(url.lastPathComponent)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(parallelRuns >= 40)
    }

    @Test(.enabled(if: CorpusLocation.corpus() != nil, "../shared/corpus is absent"))
    func premultipliedAndDownsampledBulkRunsMatch() throws {
        var failures: [String] = []
        let variants = [
            DecodingOptions(pixelFormat: .rgba8Premultiplied),
            DecodingOptions(targetSize: PixelSize(width: 37, height: 23)),
        ]
        for url in Self.files {
            for options in variants {
                guard let check = try Self.check(url, options: options) else { continue }
                failures += try check.violations(threads: [2]).map { "\(url.lastPathComponent) \(options.pixelFormat): \($0)" }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
