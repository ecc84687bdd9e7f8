import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Checks over the shared APNG corpus (`<package root>/../shared/corpus/apng`), shown as
/// skipped when it is absent.
@Suite struct APNGCorpusTests {
    static func files() -> [URL] {
        guard let corpus = CorpusLocation.corpus()?.appendingPathComponent("apng/pillow") else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted().map { corpus.appendingPathComponent($0) }
    }

    @Test(.enabled(if: !files().isEmpty, "../shared/corpus/apng/pillow is absent"))
    func seekingAnywhereMatchesSequentialDecoding() throws {
        let files = APNGCorpusTests.files()
        var checked = 0
        for url in files {
            let data = try Data(contentsOf: url)
            guard let sequential = try? Fixture.frames(data) else { continue }  // mustFail cases
            let source = try Fixture.source(data)
            let n = sequential.count
            for i in Set([n - 1, 0, n / 2, n - 2, n / 3, 1].filter { $0 >= 0 && $0 < n }).sorted(by: >) {
                #expect(try source.decodeFrame(at: i) == sequential[i], "\(url.lastPathComponent) frame \(i)")
            }
            checked += 1
        }
        #expect(checked >= 50)
    }

    @Test(.enabled(if: !files().isEmpty, "../shared/corpus/apng/pillow is absent"))
    func reencodingEveryAnimationReproducesItsFrames() throws {
        let files = APNGCorpusTests.files()
        var checked = 0
        for url in files {
            let data = try Data(contentsOf: url)
            guard let source = try? Fixture.source(data), source.info.format == .apng,
                let frames = try? Fixture.frames(data)
            else { continue }
            let encoded = try APNGEncoder().encode(
                zip(frames, source.info.frameDurations).map { EncodingFrame(pixels: $0, duration: $1) },
                canvasSize: source.info.canvasSize, options: EncodingOptions(loopCount: source.info.loopCount))
            let again = try Fixture.source(encoded)
            #expect(again.info.frameDurations == source.info.frameDurations, "\(url.lastPathComponent)")
            #expect(again.info.loopCount == source.info.loopCount, "\(url.lastPathComponent)")
            #expect(try Fixture.frames(encoded) == frames, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked >= 30)
    }
}
