import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `zoetrope convert`: exact round trips through the tool checked pixel by pixel by decoding
/// the output with Zoetrope (colour compared premultiplied, so the colour of fully
/// transparent pixels does not count), durations and plays per format.
@Suite struct ConvertCommandTests {
    static func expectSameFrames(_ a: [PixelBuffer], _ b: [PixelBuffer], _ what: String) {
        #expect(a.count == b.count, "\(what): frame count")
        for (i, (x, y)) in zip(a, b).enumerated() {
            #expect(PixelComparison.firstMismatch(expected: x, got: y, tolerance: 0) == nil, "\(what) frame \(i)")
        }
    }

    @Test(arguments: ["out.png", "out.webp", "out.gif"])
    func gifConvertsExactly(outName: String) throws {
        let gif = ConvertFixtures.gif()
        let source = try ConvertFixtures.decode(gif)
        let (run, out, dir) = try ConvertFixtures.convert(gif, inName: "in.gif", outName: outName, ["--quiet"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        let converted = try ConvertFixtures.decode(try #require(out))
        Self.expectSameFrames(source.frames, converted.frames, outName)
        #expect(converted.info.loopCount == .plays(3))
        #expect(converted.info.frameDurations == [.milliseconds(50), .milliseconds(70), .milliseconds(100), .milliseconds(30), .milliseconds(200)])
    }

    @Test func apngToLosslessWebPAndBackIsExact() throws {
        var frames: [EncodingFrame] = []
        for k in 0..<4 {
            var b = PixelBuffer(width: 20, height: 10)
            for y in 0..<10 {
                for x in 0..<20 {
                    // Many colours, soft alpha, fully transparent pixels with colour.
                    b.setPixel(x: x, y: y, [UInt8(x * 12 + k), UInt8(y * 25), UInt8(k * 60), x == 0 ? 0 : UInt8(40 + x * 10)])
                }
            }
            frames.append(EncodingFrame(pixels: b, duration: FrameDuration(numerator: Int64(k + 1), denominator: 40)))
        }
        let apng = try APNGEncoderForTests.encode(frames, loop: .plays(2))
        let first = try ConvertFixtures.convert(apng, inName: "a.png", outName: "b.webp", ["--quiet"])
        defer { try? FileManager.default.removeItem(at: first.2) }
        #expect(first.0.status == 0, "\(first.0.stderr)")
        let back = try ConvertFixtures.convert(try #require(first.1), inName: "b.webp", outName: "c.png", ["--quiet"])
        defer { try? FileManager.default.removeItem(at: back.2) }
        #expect(back.0.status == 0, "\(back.0.stderr)")
        let original = try ConvertFixtures.decode(apng), webp = try ConvertFixtures.decode(first.1!)
        let roundTrip = try ConvertFixtures.decode(try #require(back.1))
        Self.expectSameFrames(original.frames, webp.frames, "webp")
        Self.expectSameFrames(original.frames, roundTrip.frames, "apng")
        #expect(roundTrip.info.loopCount == .plays(2))
        // 25, 50, 75, 100 ms: whole milliseconds, so WebP keeps them exactly too.
        #expect(roundTrip.info.frameDurations == (1...4).map { .milliseconds(Int64(25 * $0)) })
    }

    @Test func loopsAndResizeOptions() throws {
        let gif = ConvertFixtures.gif()
        let (run, out, dir) = try ConvertFixtures.convert(
            gif, inName: "in.gif", outName: "out.webp",
            ["--loops", "infinite", "--max-size", "12", "--quiet"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0)
        let converted = try ConvertFixtures.decode(try #require(out))
        #expect(converted.info.loopCount == .infinite)
        #expect(converted.info.canvasSize == PixelSize(width: 12, height: 8))
        let once = try ConvertFixtures.convert(gif, inName: "in.gif", outName: "out.gif", ["--loops", "1", "--resize", "48x4", "--quiet"])
        defer { try? FileManager.default.removeItem(at: once.2) }
        let info = try ConvertFixtures.decode(try #require(once.1)).info
        #expect(info.loopCount == .once)
        #expect(info.storedLoopValue == nil)
        #expect(info.canvasSize == PixelSize(width: 6, height: 4))
    }

    @Test func summaryLineSaysFramesBytesRatioAndTime() throws {
        let (run, out, dir) = try ConvertFixtures.convert(ConvertFixtures.gif(), inName: "in.gif", outName: "out.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = try #require(out).count
        let inSize = ConvertFixtures.gif().count
        #expect(run.stdout.hasPrefix("5 frames gif → apng: \(Formatting.bytes(inSize)) → \(Formatting.bytes(size)) ("))
        #expect(run.stdout.hasSuffix(" s"))
        #expect(!run.stdout.contains("\n"))
    }

    @Test func badInputFailsWithOneLineAndNoOutputFile() throws {
        let (run, out, dir) = try ConvertFixtures.convert(Data("not an image at all".utf8), inName: "in.gif", outName: "out.webp")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("zoetrope: ") && !run.stderr.contains("\n"))
        #expect(run.stderr.contains("unrecognized image format"))
        #expect(out == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["in.gif"])
        // Cut inside the first frame: nothing decodes, so nothing is written.
        let gif = [UInt8](ConvertFixtures.gif())
        let early = try ConvertFixtures.convert(Data(gif.prefix(60)), inName: "in.gif", outName: "out.webp")
        defer { try? FileManager.default.removeItem(at: early.2) }
        #expect(early.0.status == 1)
        #expect(early.0.stderr.contains("truncated after 0 complete frames"))
        #expect(early.1 == nil)
        // Cut inside the last frame: the four complete frames are converted, with a warning.
        let late = try ConvertFixtures.convert(Data(gif.dropLast(6)), inName: "in.gif", outName: "out.webp", ["--quiet"])
        defer { try? FileManager.default.removeItem(at: late.2) }
        #expect(late.0.status == 0)
        #expect(late.0.stderr.hasPrefix("zoetrope: warning: ") && late.0.stderr.hasSuffix("converted the 4 frames before it"))
        #expect(try ConvertFixtures.decode(try #require(late.1)).info.frameCount == 4)
    }

    @Test(arguments: [
        (["convert", "a.gif"], "convert takes IN and OUT (or IN... --output-dir DIR --format F)"),
        (["convert", "a.gif", "b.bmp"], "cannot tell the output format from 'b.bmp' (use .gif, .png, .webp or .avif, or --format)"),
        (["convert", "a.gif", "-"], "writing to standard output needs --format"),
        (["convert", "a.gif", "b.webp", "--quality", "101"], "option '--quality' needs a whole number from 0 to 100, got '101'"),
        (["convert", "a.gif", "b.webp", "--quality", "50", "--lossless"], "--lossless and --quality exclude each other"),
        (["convert", "a.gif", "b.gif", "--quality", "50"], "--quality applies to WebP or AVIF output only"),
        (["convert", "a.gif", "b.webp", "--speed", "3"], "--speed applies to AVIF output only"),
        (["convert", "a.gif", "b.png", "--dither", "fs"], "--dither applies to GIF output only"),
        (["convert", "a.gif", "b.gif", "--dither", "blue"], "--dither is none, ordered or fs, got 'blue'"),
        (["convert", "a.gif", "b.gif", "--lossy", "20001"], "option '--lossy' needs a whole number from 0 to 20000, got '20001'"),
        (["convert", "a.gif", "b.webp", "--lossy", "60"], "--lossy applies to GIF output only"),
        (["convert", "a.gif", "b.gif", "--loops", "0"], "--loops is a number of plays (1 or more) or 'infinite', got '0'"),
        (["convert", "a.gif", "b.gif", "--resize", "10"], "--resize is WxH (e.g. 320x240), got '10'"),
        (["convert", "a.gif", "b.gif", "--resize", "10x10", "--max-size", "5"], "--resize and --max-size exclude each other"),
        (["convert", "a.gif", "b.avif", "--chroma", "422"], "--chroma is 420 or 444, got '422'"),
        (["convert", "a.gif", "b", "--format", "bmp"], "--format is gif, apng, webp or avif, got 'bmp'"),
        (["convert", "a.gif", "b.avif", "--depth", "9"], "--depth is 8, 10 or 12, got '9'"),
        (["convert", "a.gif", "b.avif", "--content", "photo"], "--content is automatic, screen or natural, got 'photo'"),
        (["convert", "a.gif", "b.webp", "--content", "screen"], "--content applies to AVIF output only"),
    ])
    func badArgumentsAreUsageErrors(args: [String], message: String) {
        // (A decode-only codec is refused too; its message lists libavif's codecs, so it is checked apart.)
        let run = ToolRun(args)
        #expect(run.status == 2)
        #expect(run.stderr == "zoetrope: \(message) (see 'zoetrope --help')")
    }

    @Test func decodeOnlyCodecIsAUsageError() {
        let run = ToolRun(["convert", "a.gif", "b.avif", "--codec", "dav1d"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("zoetrope: --codec 'dav1d' cannot encode here (libavif has: "))
    }
}
