import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeQuality

@testable import ZoetropeTool

/// `zoetrope convert --target-quality S`: the lowest quality whose output's mean SSIMULACRA2
/// reaches S.
@Suite struct ConvertTargetQualityTests {
    /// Three 48×40 frames, pixel (x, y) of frame k coloured `colour(x, y, k)`, as APNG.
    static func frames(_ colour: (Int, Int, Int) -> [UInt8]) throws -> Data {
        let frames: [EncodingFrame] = (0..<3).map { k in
            var b = PixelBuffer(width: 48, height: 40)
            for y in 0..<40 {
                for x in 0..<48 { b.setPixel(x: x, y: y, colour(x, y, k)) }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(80))
        }
        return try APNGEncoder().encode(frames, canvasSize: PixelSize(width: 48, height: 40), options: EncodingOptions())
    }

    /// Smooth gradients, which lossy coding bands.
    static func source() throws -> Data {
        try frames { x, y, k in [UInt8(x * 5), UInt8((y * 6 + k * 20) % 256), UInt8(x * y / 8), 255] }
    }

    /// 4×4 blocks in 120 nearby colours a frame: exact as a GIF, banded by `--lossy`.
    static func blockSource() throws -> Data {
        try frames { x, y, k in [UInt8(x / 4 * 12 + k * 8), UInt8(y / 4 * 14), UInt8(120 + x / 4 * 3 - y / 4 * 4), 255] }
    }

    static func score(_ output: Data, against source: Data) throws -> Double {
        let c = try AnimationComparison(
            ConvertFixtures.registry.makeFrameSource(data: source, options: .default),
            ConvertFixtures.registry.makeFrameSource(data: output, options: .default))
        return try #require(c.meanSSIMULACRA2)
    }

    /// Converts `source` to `ext` with `--target-quality target` and checks the choice: the
    /// output reaches the target, the note names the `option` setting and the score, asking
    /// for that setting writes the same file, and `smaller(setting)`, the next setting
    /// towards smaller files (nil: none), misses the target. Returns the setting.
    static func expectChoice(
        _ source: Data, to ext: String, target: Double, option: String, smaller: (Int) -> Int?
    ) throws -> Int {
        let (run, out, dir) = try ConvertFixtures.convert(source, inName: "in.png", outName: "out.\(ext)", ["--target-quality", "\(target)"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        let output = try #require(out)
        let reached = try score(output, against: source)
        #expect(reached >= target)
        let note = try #require(run.stderr.split(separator: "\n").first { $0.contains("--target-quality") })
        let setting = try #require(Int(note.split(separator: "\(option) ").last!.prefix { $0.isNumber }))
        #expect(note.hasSuffix("SSIMULACRA2 \(Formatting.format3(reached))"))
        let (same, sameOut, sameDir) = try ConvertFixtures.convert(source, inName: "in.png", outName: "s.\(ext)", ["--\(option)", "\(setting)"])
        defer { try? FileManager.default.removeItem(at: sameDir) }
        #expect(same.status == 0 && sameOut == output)
        guard let next = smaller(setting) else { return setting }
        let (other, otherOut, otherDir) = try ConvertFixtures.convert(source, inName: "in.png", outName: "o.\(ext)", ["--\(option)", "\(next)"])
        defer { try? FileManager.default.removeItem(at: otherDir) }
        #expect(other.status == 0)
        #expect(try score(try #require(otherOut), against: source) < target)
        return setting
    }

    /// The quality chosen reaches the target and the one below it does not.
    @Test(arguments: [("webp", 70.0), ("avif", 80.0)]) func theLowestQualityReachingTheTargetIsChosen(_ ext: String, _ target: Double) throws {
        _ = try Self.expectChoice(try Self.source(), to: ext, target: target, option: "quality") { $0 > 0 ? $0 - 1 : nil }
    }

    /// For GIF the strongest `--lossy` on the ladder that reaches the target is chosen: the
    /// same file as asking for it, and the next step up misses the target.
    @Test func theStrongestLossyReachingTheTargetIsChosenForGIF() throws {
        let ladder = QualitySearch.lossyLadder
        let lossy = try Self.expectChoice(try Self.blockSource(), to: "gif", target: 85, option: "lossy") { n in
            ladder.firstIndex(of: n).flatMap { $0 > 0 ? ladder[$0 - 1] : nil }
        }
        // Exact (lossy 0) scores 100, so a target of 85 leaves room to lose.
        #expect(lossy > 0)
        #expect(ladder.contains(lossy))
    }

    /// Frames of more than 256 colours are quantised, so even `--lossy 0` stays below 100.
    @Test func anUnreachableTargetWritesLossyZeroWithAWarningForGIF() throws {
        let (run, out, dir) = try ConvertFixtures.convert(try Self.source(), inName: "in.png", outName: "out.gif", ["--target-quality", "100"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0)
        #expect(out != nil)
        #expect(run.stderr.contains("lossy 0 reaches SSIMULACRA2"), "\(run.stderr)")
        #expect(run.stderr.contains("below 100; writing it"))
    }

    /// The ladder runs from the strongest setting down to exact, each step at most 2^¼ apart.
    @Test func theLossyLadderRunsFromTheStrongestToExact() {
        let ladder = QualitySearch.lossyLadder
        #expect(ladder.first == GIFEncoder.maxLossy)
        #expect(ladder.last == 0)
        #expect(ladder.count == 50)
        #expect(zip(ladder, ladder.dropFirst()).allSatisfy { $0 > $1 })
        #expect(zip(ladder, ladder.dropFirst()).dropLast().allSatisfy { Double($0) <= Double($1) * 1.19 + 1 })
    }

    @Test func anUnreachableTargetWritesQualityHundredWithAWarning() throws {
        let (run, out, dir) = try ConvertFixtures.convert(try Self.source(), inName: "in.png", outName: "out.webp", ["--target-quality", "100"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0)
        #expect(out != nil)
        #expect(run.stderr.contains("quality 100 reaches SSIMULACRA2"))
        #expect(run.stderr.contains("below 100; writing it"))
    }

    @Test(arguments: [
        (["--target-quality", "70", "--quality", "50"], "--target-quality chooses the quality: leave out --quality and --lossless"),
        (["--target-quality", "101"], "--target-quality is a SSIMULACRA2 score from 0 to 100, got '101'"),
        (["--target-quality", "70", "--max-size", "10"], "--target-quality compares full-size frames: leave out --resize and --max-size"),
    ]) func badCombinationsAreUsageErrors(_ extra: [String], _ message: String) {
        let run = ToolRun(["convert", "a.gif", "b.webp"] + extra)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        let apng = ToolRun(["convert", "a.gif", "b.png", "--target-quality", "70"])
        #expect(apng.stderr.contains("--target-quality applies to WebP, AVIF or GIF output only"))
        let gif = ToolRun(["convert", "a.gif", "b.gif", "--target-quality", "70", "--lossy", "20"])
        #expect(gif.status == 2)
        #expect(gif.stderr.contains("--target-quality chooses --lossy: leave it out"), "\(gif.stderr)")
    }
}
