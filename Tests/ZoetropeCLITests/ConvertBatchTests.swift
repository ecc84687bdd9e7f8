import Foundation
import Testing
import Zoetrope

@testable import zoetrope

/// `zoetrope convert IN... --output-dir DIR --format F`: many inputs in one process.
@Suite struct ConvertBatchTests {
    /// A folder with `files` written into it.
    static func folder(_ files: [String: Data]) throws -> URL {
        let dir = try ToolRunner.temporaryDirectory()
        for (name, data) in files { try data.write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    @Test func everyInputIsConvertedAsAloneAndABadOneDoesNotStopTheOthers() throws {
        var frames: [EncodingFrame] = []
        for k in 0..<3 {
            var b = PixelBuffer(width: 6, height: 4)
            for y in 0..<4 { for x in 0..<6 { b.setPixel(x: x, y: y, [UInt8(40 * x), UInt8(60 * y), UInt8(90 * k), 255]) } }
            frames.append(EncodingFrame(pixels: b, duration: .milliseconds(40)))
        }
        let dir = try Self.folder([
            "a.gif": ConvertFixtures.gif(), "bad.gif": Data("not an image".utf8),
            "c.png": try APNGEncoderForTests.encode(frames, loop: .infinite),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.gif").path, bad = dir.appendingPathComponent("bad.gif").path
        let c = dir.appendingPathComponent("c.png").path
        let outDir = dir.appendingPathComponent("out/webp")  // created, with its parent

        let run = ToolRun(["convert", a, bad, c, "--output-dir", outDir.path, "--format", "webp"])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "zoetrope: \(bad): unrecognized image format (no registered coder matches the content; first bytes: 6e 6f 74 20 61 6e 20 69)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("\(a): 5 frames gif → webp: ") == true)
        #expect(lines.last?.hasPrefix("\(c): 3 frames apng → webp: ") == true)
        let written = try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted()
        #expect(written == ["a.webp", "c.webp"])
        // Byte for byte what converting each file alone writes.
        for (input, name) in [(a, "a"), (c, "c")] {
            let alone = dir.appendingPathComponent("\(name)-alone.webp")
            #expect(ToolRun(["convert", input, alone.path, "--quiet"]).status == 0)
            #expect(try Data(contentsOf: alone) == Data(contentsOf: outDir.appendingPathComponent("\(name).webp")))
        }
    }

    @Test func apngOutputIsNamedPNGAndQuietPrintsNothing() throws {
        let dir = try Self.folder(["clip.gif": ConvertFixtures.gif()])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = ToolRun([
            "convert", dir.appendingPathComponent("clip.gif").path, "--output-dir", dir.path,
            "--format", "apng", "--quiet",
        ])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty && run.stderr.isEmpty)
        let converted = try ConvertFixtures.decode(try Data(contentsOf: dir.appendingPathComponent("clip.png")))
        #expect(converted.info.format == .apng)
        #expect(converted.frames.count == 5)
    }

    @Test(arguments: [
        (["a.gif", "--output-dir", "D"], "--output-dir needs --format"),
        (["--output-dir", "D", "--format", "webp"], "convert --output-dir takes one or more inputs"),
        (["-", "--output-dir", "D", "--format", "webp"], "--output-dir converts files, not standard input"),
        (["x/a.gif", "y/a.png", "--output-dir", "D", "--format", "gif"], "'x/a.gif' and 'y/a.png' would both be written to "),
        (["a.gif", "--output-dir", "D", "--format", "jpeg"], "--format is gif, apng, webp or avif, got 'jpeg'"),
        (["a.gif", "--output-dir", "D", "--format", "gif", "--quality", "5"], "--quality applies to WebP or AVIF output only"),
    ])
    func usageErrorsComeBeforeAnyWork(arguments: [String], message: String) throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let absolute = arguments.map { $0 == "D" ? dir.appendingPathComponent("D").path : $0 }
        let run = ToolRun(["convert"] + absolute)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("zoetrope: \(message)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("D").path))
    }

    @Test func anOutputDirThatIsAFileFailsInOneLine() throws {
        let dir = try Self.folder(["a.gif": ConvertFixtures.gif(), "taken": Data()])
        defer { try? FileManager.default.removeItem(at: dir) }
        let taken = dir.appendingPathComponent("taken").path
        let run = ToolRun(["convert", dir.appendingPathComponent("a.gif").path, "--output-dir", taken, "--format", "webp"])
        #expect(run.status == 1)
        #expect(run.stderr == "zoetrope: \(taken): not a folder")
    }
}
