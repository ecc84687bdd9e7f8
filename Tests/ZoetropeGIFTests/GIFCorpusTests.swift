import Foundation
import Testing
import Zoetrope
import ZoetropeGIF

/// Runs the shared conformance corpus's GIF cases through `GIFCoder` directly: sizes, frame
/// counts, plays, raw durations and rejections (pixels are compared by
/// `check_expectations.py`, which reads the reference PNGs). Skips when the corpus is absent.
@Suite struct GIFCorpusTests {
    /// <package root>/../shared/corpus/gif/pygif
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/gif/pygif")

    /// Cases where this decoder deliberately differs from the expectation (see the report):
    /// max-codes uses an LZW minimum code size of 11, which giflib and Chromium's decoder
    /// (Wuffs, "bad literal width") reject; only sizes up to 8 fit an 8-bit palette.
    static let rejectedOnPurpose: Set<String> = ["max-codes"]

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".expect.json") }.map { String($0.dropLast(".expect.json".count)) }.sorted()
    }

    @Test func corpusCasesMatchTheirExpectations() throws {
        let cases = Self.cases
        guard !cases.isEmpty else {
            print("GIF corpus not found at \(Self.folder.path); skipping")
            return
        }
        print("checking \(cases.count) GIF corpus cases in \(Self.folder.path)")
        for name in cases {
            let expectation = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("\(name).expect.json")))
                    as? [String: Any])
            let data = try Data(contentsOf: Self.folder.appendingPathComponent("\(name).gif"))
            let mustFail = expectation["mustFail"] as? Bool ?? false
            var firstFrame: Result<PixelBuffer, any Error>?
            let source: (any FrameSource)?
            do {
                let s = try GIFCoder().makeFrameSource(data: data, options: .default)
                source = s
                firstFrame = Result { try s.decodeFrame(at: 0) }
            } catch {
                source = nil
            }
            let failed = source == nil || (try? firstFrame?.get()) == nil
            if mustFail || Self.rejectedOnPurpose.contains(name) {
                #expect(failed, "\(name) should be rejected")
                continue
            }
            guard let source, !failed else {
                Issue.record("\(name) failed to decode")
                continue
            }
            let info = source.info
            #expect(info.canvasSize.width == expectation["width"] as? Int, "\(name) width")
            #expect(info.canvasSize.height == expectation["height"] as? Int, "\(name) height")
            #expect(info.frameCount == expectation["frameCount"] as? Int, "\(name) frame count")
            let plays: String = info.loopCount.finitePlays.map(String.init) ?? "infinite"
            #expect(plays == "\(expectation["plays"] ?? "?")", "\(name) plays")
            let durations = info.frameDurations.map { Int($0.milliseconds.rounded()) }
            #expect(durations == expectation["durationsMs"] as? [Int], "\(name) durations")
            for i in 1..<max(1, info.frameCount) {
                #expect(throws: Never.self, "\(name) frame \(i)") { _ = try source.decodeFrame(at: i) }
            }
        }
    }
}
