import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// End to end: the real binary on the demo and on bad input.
@Suite struct InfoAndFramesTests {
    @Test func framesOnTheDemoWritesOneHundredPNGsAndAManifest() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try ToolRunner.binary(["frames", "--demo", "--output", dir.path])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names.count == 101)
        #expect(names.first == "frame-0000.png" && names.contains("frame-0099.png") && names.last == "manifest.json")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect(manifest["format"] as? String == "demo")
        #expect(manifest["width"] as? Int == 756 && manifest["height"] as? Int == 304)
        #expect(manifest["frameCount"] as? Int == 100)
        #expect(manifest["plays"] as? String == "infinite")
        let frames = try #require(manifest["frames"] as? [[String: Any]])
        #expect(frames.count == 100)
        #expect(frames[7]["file"] as? String == "frame-0007.png")
        #expect(frames[7]["durationMs"] as? Int == 50 && frames[7]["displayDurationMs"] as? Int == 50)
        let png = try Data(contentsOf: dir.appendingPathComponent("frame-0000.png"))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func infoJSONOnTheDemo() throws {
        let r = try ToolRunner.binary(["info", "--demo", "--json"])
        #expect(r.status == 0)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let o = try #require(all.first)
        #expect(o["file"] as? String == "demo" && o["format"] as? String == "demo")
        #expect(o["frameCount"] as? Int == 100 && o["plays"] as? String == "infinite")
        #expect(o["frameBytes"] as? Int == 919_296 && o["allFramesBytes"] as? Int == 91_929_600)
        #expect((o["durationsMs"] as? [Int])?.count == 100)
        #expect(o["totalDurationMs"] as? Int == 5000)
    }

    @Test func infoTextSaysWhatAPersonNeeds() throws {
        let r = try ToolRunner.binary(["info", "--demo"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("canvas     756×304"))
        #expect(r.stdout.contains("frames     100"))
        #expect(r.stdout.contains("plays      infinite"))
        #expect(r.stdout.contains("50 ms ×100 (raw)"))
        #expect(r.stdout.contains("all frames 91,929,600 bytes (87.7 MiB)"))
    }

    @Test func garbageExitsOneWithOneLineAndNoCrash() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let garbage = dir.appendingPathComponent("garbage.gif")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }).write(to: garbage)
        let r = try ToolRunner.binary(["frames", garbage.path, "--output", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("zoetrope: \(garbage.path): unrecognized image format") == true)
        let empty = dir.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        let e = try ToolRunner.binary(["info", empty.path])
        #expect(e.status == 1 && e.stderr.split(separator: "\n").count == 1)
    }

    @Test func usageErrorsExitTwo() throws {
        for args in [["frames", "--demo"], ["bogus"], ["info"], ["info", "--demo", "--colour"], []] {
            let r = try ToolRunner.binary(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains("zoetrope"), "\(args)")
        }
        let missing = try ToolRunner.binary(["info", "/nonexistent/file.gif"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "zoetrope: /nonexistent/file.gif: no such file\n")
    }

    @Test func helpAndVersion() throws {
        let h = try ToolRunner.binary(["--help"])
        #expect(h.status == 0 && h.stdout.contains("usage: zoetrope COMMAND"))
        let v = try ToolRunner.binary(["--version"])
        #expect(v.status == 0 && v.stdout == "zoetrope \(Tool.version)\n")
        let fh = try ToolRunner.binary(["frames", "--help"])
        #expect(fh.status == 0 && fh.stdout.contains("manifest.json"))
    }
}

/// Content decides the format, never the file name.
@Suite struct LyingExtensionTests {
    @Test func aGIFNamedWebPIsAGIF() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: [(255, 0, 0), (0, 0, 255)])
        w.loop(2)
        w.graphicControl(delay: 7)
        w.image(width: 2, height: 1, indices: [0, 1])
        w.graphicControl(delay: 7)
        w.image(width: 2, height: 1, indices: [1, 0])
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("really-a-gif.webp").path
        try Data(w.file).write(to: URL(fileURLWithPath: path))
        let r = try ToolRunner.binary(["info", path, "--json"])
        #expect(r.status == 0)
        let o = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(o["format"] as? String == "gif")
        #expect(o["frameCount"] as? Int == 2)
        #expect(o["plays"] as? Int == 3, "NETSCAPE loop count 2 is 3 plays")
        #expect(o["durationsMs"] as? [Int] == [70, 70])
    }
}
