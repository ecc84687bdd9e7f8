import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs
import ZoetropeQuality
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `AnimationComparison` and `zoetrope compare` on conversions made with the project's encoders.
@Suite struct CompareTests {
    static let gif = ConvertFixtures.gif()
    static let registry = CoderRegistry.withBuiltInCoders()

    static func image(_ data: Data) throws -> AnimatedImage { try AnimatedImage(data: data, registry: registry) }

    /// The GIF's frames as WebP at `quality` (nil: lossless), keeping its plays.
    static func webp(quality: Int? = nil, loopCount: LoopCount = .plays(3)) throws -> Data {
        try image(gif).encoded(with: WebPEncoder(), options: EncodingOptions(loopCount: loopCount, quality: quality))
    }

    /// Runs `zoetrope compare` on two files written to a fresh folder.
    static func compare(_ a: Data, _ aName: String, _ b: Data, _ bName: String, _ extra: [String] = []) throws -> ToolRun {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let aURL = dir.appendingPathComponent(aName), bURL = dir.appendingPathComponent(bName)
        try a.write(to: aURL)
        try b.write(to: bURL)
        return ToolRun(["compare", aURL.path, bURL.path] + extra)
    }

    @Test func aLosslessConversionIsEqual() throws {
        let comparison = try AnimationComparison(Self.image(Self.gif), Self.image(Self.webp()))
        #expect(comparison.first.format == .gif && comparison.second.format == .webp)
        #expect(comparison.comparedFrameCount == 5 && comparison.identicalFrameCount == 5)
        #expect(comparison.maxChannelDifference == 0)
        #expect(comparison.pooledPSNR == .infinity)
        #expect(comparison.meanSSIMULACRA2 == 100 && comparison.minSSIMULACRA2 == 100)
        #expect(comparison.differences() == [])
        #expect(comparison.isEqual())

        let r = try Self.compare(Self.gif, "a.gif", Self.webp(), "b.webp")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("5 frames compared, 5 identical; max channel difference 0; pooled PSNR ∞ (identical)"))
        #expect(r.stdout.hasSuffix("equal"))
    }

    @Test func aLossyConversionReportsItsPSNRAndPassesOnlyALooseTolerance() throws {
        let lossy = try Self.webp(quality: 40)
        let comparison = try AnimationComparison(Self.image(Self.gif), Self.image(lossy))
        let psnr = try #require(comparison.pooledPSNR)
        #expect(psnr.isFinite && psnr > 15 && psnr < 60)
        #expect(comparison.maxChannelDifference > 0)
        #expect(comparison.frames.allSatisfy { $0.isIdentical || $0.psnr.isFinite })
        // Each frame's perceptual score is SSIMULACRA2 of its two canvases; the mean and
        // the lowest come from them.
        let scores = comparison.frames.compactMap(\.ssimulacra2)
        #expect(scores.count == 5)
        #expect(comparison.frames.allSatisfy { $0.isIdentical ? $0.ssimulacra2 == 100 : $0.ssimulacra2! < 100 })
        #expect(scores.contains { $0 < 100 })
        #expect(comparison.minSSIMULACRA2 == scores.min())
        #expect(abs(try #require(comparison.meanSSIMULACRA2) - scores.reduce(0, +) / 5) < 1e-9)
        let unscored = try AnimationComparison(Self.image(Self.gif), Self.image(lossy), perceptual: false)
        #expect(unscored.meanSSIMULACRA2 == nil && unscored.pooledPSNR == psnr)
        guard case .pixels(let frames, let maxDifference, 0)? = comparison.differences().last else {
            Issue.record("no pixel difference: \(comparison.differences())")
            return
        }
        #expect(!frames.isEmpty && maxDifference == comparison.maxChannelDifference)
        #expect(comparison.isEqual(tolerance: comparison.maxChannelDifference))
        #expect(!comparison.isEqual(tolerance: comparison.maxChannelDifference - 1))

        let strict = try Self.compare(Self.gif, "a.gif", lossy, "b.webp", ["--json"])
        #expect(strict.status == 1)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(strict.stdout.utf8)) as? [String: Any])
        #expect(o["equal"] as? Bool == false)
        let reported = try #require(o["pooledPSNR"] as? Double)
        #expect(abs(reported - psnr) < 0.001)
        #expect((o["frames"] as? [[String: Any]])?.count == 5)
        #expect(abs(try #require(o["meanSSIMULACRA2"] as? Double) - comparison.meanSSIMULACRA2!) < 0.001)
        #expect((o["frames"] as? [[String: Any]])?.allSatisfy { $0["ssimulacra2"] is Double } == true)
        #expect((o["a"] as? [String: Any])?["format"] as? String == "gif")
        #expect((o["differences"] as? [String])?.first?.hasPrefix("pixels of frame") == true)

        let loose = try Self.compare(Self.gif, "a.gif", lossy, "b.webp", ["--tolerance", "255"])
        #expect(loose.status == 0, "\(loose.stdout)")
        #expect(loose.stdout.contains("pooled PSNR \(Formatting.format3(psnr)) dB"))
        #expect(loose.stdout.contains("SSIMULACRA2 mean \(Formatting.format3(comparison.meanSSIMULACRA2!))"))
        let fast = try Self.compare(Self.gif, "a.gif", lossy, "b.webp", ["--psnr-only"])
        #expect(fast.status == 1 && !fast.stdout.contains("SSIMULACRA2"))
        #expect(loose.stdout.hasSuffix("equal within tolerance 255"))
    }

    @Test func changedPlaysAndDurationsDifferAndAreNamed() throws {
        let forever = try Self.webp(loopCount: .infinite)
        let plays = try AnimationComparison(Self.image(Self.gif), Self.image(forever))
        #expect(plays.differences() == [.plays(.plays(3), .infinite)])
        let r = try Self.compare(Self.gif, "a.gif", forever, "b.webp")
        #expect(r.status == 1)
        #expect(r.stdout.hasSuffix("differ: plays 3 vs infinite"))

        // The same GIF with frame 1's delay 7 cs → 1 cs and frame 3's 3 cs → 2 cs.
        var retimed = [UInt8](Self.gif)
        var gce: [Int] = []
        for i in 0..<(retimed.count - 4) where retimed[i] == 0x21 && retimed[i + 1] == 0xF9 && retimed[i + 2] == 4 { gce.append(i) }
        #expect(gce.count == 5)
        retimed[gce[1] + 4] = 1
        retimed[gce[3] + 4] = 2
        let timing = try AnimationComparison(Self.image(Self.gif), Self.image(Data(retimed)))
        #expect(timing.differences() == [.durations(frames: [1, 3]), .displayedDurations(frames: [1, 3])])
        #expect(timing.identicalFrameCount == 5)
        let t = try Self.compare(Self.gif, "a.gif", Data(retimed), "b.gif")
        #expect(t.status == 1)
        #expect(t.stdout.hasSuffix("differ: durations of frames 1, 3; displayed durations of frames 1, 3"))
        // 0 and 10 ms both display as 100 ms: only the raw durations differ.
        let buffer = PixelBuffer(width: 1, height: 1)
        let raw = try AnimationComparison(StillSource(buffer, duration: .zero), StillSource(buffer, duration: .milliseconds(10)))
        #expect(raw.differences() == [.durations(frames: [0])])
    }

    @Test func differentCanvasesOrFrameCountsAreReportedNotCompared() throws {
        let smaller = try Self.image(Self.gif).encoded(
            with: WebPEncoder(), options: EncodingOptions(loopCount: .plays(3)),
            targetSize: PixelSize(width: 12, height: 8))
        let canvas = try AnimationComparison(Self.image(Self.gif), Self.image(smaller))
        #expect(canvas.comparedFrameCount == 0 && canvas.pooledPSNR == nil)
        #expect(canvas.differences() == [.canvasSize(PixelSize(width: 24, height: 16), PixelSize(width: 12, height: 8))])
        let r = try Self.compare(Self.gif, "a.gif", smaller, "b.webp")
        #expect(r.status == 1 && r.stdout.contains("not compared (the canvases differ)"))

        // The first three frames only: those are compared, and the count differs.
        let image = try Self.image(Self.gif)
        let source = try image.makeFrameSource()
        let writer = try WebPEncoder().makeWriter(canvasSize: source.info.canvasSize, options: EncodingOptions(loopCount: .plays(3)))
        for i in 0..<3 { try writer.add(EncodingFrame(pixels: source.decodeFrame(at: i), duration: source.info.frameDurations[i])) }
        let three = try writer.finish()
        let counts = try AnimationComparison(image, Self.image(three))
        #expect(counts.comparedFrameCount == 3 && counts.identicalFrameCount == 3)
        #expect(counts.differences() == [.frameCount(5, 3)])
    }

    @Test func fullyTransparentPixelsAreEqualWhateverTheirColour() throws {
        let a = PixelBuffer(width: 2, height: 1)
        var b = a
        b.setPixel(x: 0, y: 0, [200, 100, 50, 0])  // transparent, another colour: equal
        let same = try AnimationComparison(StillSource(a), StillSource(b))
        #expect(same.isEqual() && same.identicalFrameCount == 1)
        b.setPixel(x: 1, y: 0, [0, 0, 0, 1])  // barely visible: differs in alpha by 1
        let differ = try AnimationComparison(StillSource(a), StillSource(b))
        #expect(differ.maxChannelDifference == 1 && differ.frames[0].differingPixelCount == 1)
        // One squared error of 1 over 8 samples: 10·log10(255² · 8).
        #expect(abs(try #require(differ.pooledPSNR) - 10 * log10(255.0 * 255 * 8)) < 1e-9)
        #expect(differ.differences(tolerance: 1).isEmpty && !differ.isEqual())
    }

    @Test func usageErrorsAndUnreadableInputsExitTwo() throws {
        #expect(ToolRun(["compare"]).status == 2)
        #expect(ToolRun(["compare", "a.gif"]).status == 2)
        #expect(ToolRun(["compare", "a", "b", "c"]).status == 2)
        #expect(ToolRun(["compare", "a", "b", "--tolerance", "256"]).status == 2)
        #expect(ToolRun(["compare", "a", "b", "--tolerance", "x"]).status == 2)
        #expect(ToolRun(["compare", "a", "b", "--bogus"]).status == 2)
        let missing = ToolRun(["compare", "/nonexistent/a.gif", "/nonexistent/b.gif"])
        #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/a.gif"))
        let garbage = try Self.compare(Self.gif, "a.gif", Data("not an image".utf8), "b.gif")
        #expect(garbage.status == 2 && garbage.stderr.contains("unrecognized image format"))
        #expect(ToolRun(["compare", "--help"]).status == 0)
    }
}

/// A one-frame source over a buffer, for pixel-level comparisons.
final class StillSource: FrameSource {
    let info: AnimationInfo
    let options = DecodingOptions.default
    let pixels: PixelBuffer
    init(_ pixels: PixelBuffer, duration: FrameDuration = .zero) {
        self.pixels = pixels
        info = AnimationInfo(format: .png, canvasSize: pixels.size, frameDurations: [duration], loopCount: .once, storedLoopValue: nil)
    }
    var retainedByteCount: Int { 0 }
    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        buffer = pixels
    }
}
