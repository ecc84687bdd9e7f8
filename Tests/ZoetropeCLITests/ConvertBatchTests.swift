import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding

@testable import ZoetropeTool

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

    /// With several jobs the files convert at once, yet every output and every line is what
    /// one job gives, in input order, and a bad file still fails alone.
    @Test func parallelJobsWriteWhatOneJobWritesInInputOrder() throws {
        var files: [String: Data] = ["bad.gif": Data("not an image".utf8)]
        var inputs: [String] = []
        for k in 0..<6 {
            var frames: [EncodingFrame] = []
            for f in 0..<(2 + k) {
                var b = PixelBuffer(width: 8 + 5 * k, height: 6 + 3 * k)
                for y in 0..<b.height {
                    for x in 0..<b.width { b.setPixel(x: x, y: y, [UInt8(30 * x % 256), UInt8(50 * y % 256), UInt8(70 * f % 256), 255]) }
                }
                frames.append(EncodingFrame(pixels: b, duration: .milliseconds(Int64(30 + 10 * f))))
            }
            files["f\(k).png"] = try APNGEncoderForTests.encode(frames, loop: .plays(k + 1))
            inputs.append("f\(k).png")
            if k == 2 { inputs.append("bad.gif") }
        }
        let dir = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = inputs.map { dir.appendingPathComponent($0).path }
        func batch(_ jobs: Int) -> (ToolRun, [String: Data]) {
            let out = dir.appendingPathComponent("out\(jobs)")
            let run = ToolRun(["convert"] + paths + ["--output-dir", out.path, "--format", "webp", "--jobs", "\(jobs)"])
            var written: [String: Data] = [:]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] {
                written[name] = try? Data(contentsOf: out.appendingPathComponent(name))
            }
            return (run, written)
        }
        let (one, oneFiles) = batch(1)
        let (three, threeFiles) = batch(3)
        #expect(one.status == 1 && three.status == 1)
        #expect(oneFiles.count == 6)
        #expect(threeFiles == oneFiles)
        #expect(three.stderr == one.stderr)
        // Each summary line without its time, which differs from run to run.
        func untimed(_ s: String) -> [String] { s.split(separator: "\n").map { String($0.prefix { $0 != "(" }) } }
        #expect(untimed(three.stdout) == untimed(one.stdout))
        #expect(untimed(one.stdout).filter { $0.hasPrefix(dir.path) }.count == 6)
        #expect(three.stdout.split(separator: "\n").first?.hasPrefix(paths[0]) == true)
    }

    @Test func jobsIsABatchOption() {
        let single = ToolRun(["convert", "a.gif", "b.webp", "--jobs", "2"])
        #expect(single.status == 2)
        #expect(single.stderr.contains("--jobs applies to --output-dir batches only"))
        let zero = ToolRun(["convert", "a.gif", "--output-dir", "/tmp/x", "--format", "webp", "--jobs", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("option '--jobs' needs a whole number from 1 to 256, got '0'"))
    }

    /// A conversion is admitted while the canvases of those running fit the limit; one is
    /// always admitted, however big.
    @Test func theGateBoundsTheCanvasesHeldTogether() {
        #expect(BatchCanvasGate.cost(of: PixelSize(width: 100, height: 50), depth: .eight) == 80_000)
        #expect(BatchCanvasGate.cost(of: PixelSize(width: 100, height: 50), depth: .sixteen) == 160_000)
        #expect(BatchCanvasGate.admits(running: 0, held: 0, cost: 5_000, limit: 1_000))
        #expect(BatchCanvasGate.admits(running: 2, held: 600, cost: 400, limit: 1_000))
        #expect(!BatchCanvasGate.admits(running: 2, held: 600, cost: 401, limit: 1_000))
        #expect(!BatchCanvasGate.admits(running: 1, held: 10, cost: .max, limit: 1_000))
        let gate = BatchCanvasGate(limit: 1_000)
        gate.enter(5_000)  // alone, over the limit
        gate.leave(5_000)
        gate.enter(600)
        gate.enter(400)
        gate.leave(600)
        gate.leave(400)
    }
}
