import Foundation
import Testing
import Zoetrope
@testable import ZoetropeWebP

/// The shared conformance corpus's WebP cases, decoded through `WebPCoder` and checked
/// against their `CASE.expect.json` (size, frames, durations, plays) and, pixel for pixel,
/// against libwebp's own `WebPAnimDecoder`. (The reference PNGs are checked by
/// `check_expectations.py` through the tool.) Skips when the corpus is absent.
@Suite struct WebPCorpusTests {
    /// `<package root>/../shared/corpus/webp`, the package root derived from this file's path.
    static var corpus: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/webp")
    }

    static func cases() -> [URL] {
        guard let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "webp" }.sorted { $0.path < $1.path }
    }

    @Test func corpusCasesMatchTheirExpectations() throws {
        let cases = Self.cases()
        guard !cases.isEmpty else {
            print("WebPCorpusTests: no corpus at \(Self.corpus.path); skipping")
            return
        }
        for file in cases {
            let expectURL = file.deletingPathExtension().appendingPathExtension("expect.json")
            let expect = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: expectURL)) as? [String: Any])
            let data = try Data(contentsOf: file)
            if expect["mustFail"] as? Bool == true {
                #expect(throws: AnimatedImageError.self) { try WebPCoder().makeFrameSource(data: data, options: .default) }
                continue
            }
            let source = try WebPCoder().makeFrameSource(data: data, options: .default)
            let name = file.lastPathComponent
            #expect(source.info.canvasSize.width == expect["width"] as? Int, "\(name)")
            #expect(source.info.canvasSize.height == expect["height"] as? Int, "\(name)")
            #expect(source.info.frameCount == expect["frameCount"] as? Int, "\(name)")
            if let durations = expect["durationsMs"] as? [Double] {
                #expect(source.info.frameDurations.map(\.milliseconds) == durations, "\(name)")
            }
            switch expect["plays"] {
            case let s as String: #expect(s == "infinite" && source.info.loopCount == .infinite, "\(name)")
            case let n as Int: #expect(source.info.loopCount == .plays(n), "\(name)")
            default: break
            }
            let reference = try WebPFixture.referenceFrames(data)
            #expect(reference.count == source.info.frameCount)
            for (i, frame) in reference.enumerated() {
                #expect(try source.decodeFrame(at: i).bytes == frame, "\(name) frame \(i)")
            }
        }
    }
}
