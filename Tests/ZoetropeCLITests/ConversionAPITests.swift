import Foundation
import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

/// The application API: `AnimatedImage.encoded(with:options:targetSize:)` and
/// `AnimationConversion`, the same conversion the tool runs.
@Suite struct ConversionAPITests {
    @Test func oneCallConvertsExactlyAndKeepsPlays() throws {
        let image = try AnimatedImage(data: ConvertFixtures.gif(), registry: ConvertFixtures.registry)
        let webp = try image.encoded(with: WebPEncoder())
        let converted = try ConvertFixtures.decode(webp)
        #expect(converted.info.loopCount == .plays(3))
        ConvertCommandTests.expectSameFrames(try ConvertFixtures.decode(ConvertFixtures.gif()).frames, converted.frames, "api")
    }

    @Test func optionsAndTargetSize() throws {
        let image = try AnimatedImage(data: ConvertFixtures.gif(), registry: ConvertFixtures.registry)
        let gif = try image.encoded(with: GIFEncoder(), options: EncodingOptions(loopCount: .infinite), targetSize: PixelSize(width: 12, height: 12))
        let info = try ConvertFixtures.decode(gif).info
        #expect(info.canvasSize == PixelSize(width: 12, height: 8))
        #expect(info.loopCount == .infinite)
        #expect(info.frameCount == 5)
    }

    @Test func progressIsReportedPerFrameInOrder() throws {
        let source = try ConvertFixtures.registry.makeFrameSource(data: ConvertFixtures.gif())
        let writer = try WebPEncoder().makeWriter(canvasSize: source.outputSize, options: EncodingOptions())
        var seen: [Int] = []
        let (data, summary) = try AnimationConversion.run(source: source, writer: writer) { done, total in
            #expect(total == 5)
            seen.append(done)
        }
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(summary.frameCount == 5 && summary.outputByteCount == data.count && summary.truncation == nil)
    }

    @Test func runToAFileWritesWhatRunReturns() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("convert-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try ConvertFixtures.registry.makeFrameSource(data: ConvertFixtures.gif())
        let summary = try AnimationConversion.run(
            source: source,
            writer: try WebPEncoder().makeWriter(
                canvasSize: source.outputSize, options: EncodingOptions(loopCount: .plays(3))), to: url)
        let again = try ConvertFixtures.registry.makeFrameSource(data: ConvertFixtures.gif())
        let (data, _) = try AnimationConversion.run(
            source: again,
            writer: try WebPEncoder().makeWriter(
                canvasSize: again.outputSize, options: EncodingOptions(loopCount: .plays(3))))
        #expect(try Data(contentsOf: url) == data)
        #expect(summary.frameCount == 5 && summary.outputByteCount == data.count && summary.truncation == nil)
    }
}
