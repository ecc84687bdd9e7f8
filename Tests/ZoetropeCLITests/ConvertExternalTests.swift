import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `zoetrope convert` as a real process (standard input and output) and its AVIF output
/// read by other decoders: libavif's `avifdec` (Debian's libavif-bin) and Pillow with AVIF.
@Suite struct ConvertExternalTests {
    static func which(_ tool: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + tool) {
            return dir + "/" + tool
        }
        return nil
    }

    /// Runs `executable` with `arguments`, feeding `input` on standard input.
    static func run(_ executable: URL, _ arguments: [String], input: Data = Data()) throws -> (status: Int32, stdout: Data, stderr: String) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        let inPipe = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = inPipe
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let writer = Thread {
            inPipe.fileHandleForWriting.write(input); try? inPipe.fileHandleForWriting.close()
        }
        writer.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, o, String(decoding: e, as: UTF8.self))
    }

    static let pillowHasAVIF: Bool = {
        guard let r = try? run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "from PIL import features; assert features.check('avif')"])
        else { return false }
        return r.status == 0
    }()

    @Test func standardInputToStandardOutput() throws {
        let gif = ConvertFixtures.gif()
        let r = try Self.run(ToolRunner.binary, ["convert", "-", "-", "--format", "webp"], input: gif)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("5 frames gif → webp: "))
        let converted = try ConvertFixtures.decode(r.stdout)
        #expect(converted.info.format == .webp)
        ConvertCommandTests.expectSameFrames(try ConvertFixtures.decode(gif).frames, converted.frames, "stdout webp")
    }

    @Test func unreadableStandardInputWritesNothing() throws {
        let r = try Self.run(ToolRunner.binary, ["convert", "-", "-", "--format", "gif"], input: Data("GIF89a".utf8))
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("zoetrope: standard input: "))
    }

    /// Lossless AVIF from the tool: Zoetrope reads back exact frames, durations and plays
    /// (the edit list), and `avifdec` decodes every frame with the same durations.
    @Test(.enabled(if: which("avifdec") != nil, "avifdec missing (apt install libavif-bin)"))
    func avifOutputDecodesInAvifdec() throws {
        let (run, out, dir) = try ConvertFixtures.convert(
            ConvertFixtures.gif(), inName: "in.gif", outName: "out.avif",
            ["--lossless", "--speed", "10", "--quiet"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        let avif = try #require(out)
        let ours = try ConvertFixtures.decode(avif)
        #expect(ours.info.loopCount == .plays(3))
        #expect(ours.info.frameDurations == [.milliseconds(50), .milliseconds(70), .milliseconds(100), .milliseconds(30), .milliseconds(200)])
        ConvertCommandTests.expectSameFrames(try ConvertFixtures.decode(ConvertFixtures.gif()).frames, ours.frames, "avif")
        let info = try Self.run(URL(fileURLWithPath: Self.which("avifdec")!), ["--info", dir.appendingPathComponent("out.avif").path])
        let text = String(decoding: info.stdout, as: UTF8.self)
        #expect(info.status == 0)
        // Timescale 100 (the LCM of the centisecond durations); one play lasts 45 ticks.
        #expect(text.contains("100 timescales per second, 0.45 seconds (45 timescales), 5 frames"), "\(text)")
        let durations = text.split(separator: "\n").filter { $0.contains("Decoded frame") }.compactMap { line -> String? in
            guard let r = line.range(of: "[duration ") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != " " })
        }
        #expect(durations == ["0.05", "0.07", "0.10", "0.03", "0.20"])
    }

    /// Pillow (with its own, newer libavif) reads the same frame count, frame durations and
    /// pixels. Pillow does not report an AVIF's repetition count, so plays are checked above.
    @Test(.enabled(if: pillowHasAVIF, "Pillow without AVIF support"))
    func avifOutputDecodesInPillow() throws {
        let (run, _, dir) = try ConvertFixtures.convert(
            ConvertFixtures.gif(), inName: "in.gif", outName: "out.avif",
            ["--lossless", "--speed", "10", "--quiet"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0)
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            out = [str(im.n_frames)]
            for i in range(im.n_frames):
                im.seek(i); im.load()
                px = im.convert("RGBA").getpixel((4, 12))
                out.append("%d:%d,%d,%d,%d" % ((im.info.get("duration"),) + px))
            print(" ".join(out))
            """
        let r = try Self.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, dir.appendingPathComponent("out.avif").path])
        #expect(r.status == 0, "\(r.stderr)")
        let fields = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        #expect(fields.first == "5")
        let frames = try ConvertFixtures.decode(ConvertFixtures.gif()).frames
        let expected = zip([50, 70, 100, 30, 200], frames).map { d, f in "\(d):" + f.pixel(x: 4, y: 12).map(String.init).joined(separator: ",") }
        #expect(Array(fields.dropFirst()).map(String.init) == expected)
    }
}
