import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `--threads N` on `frames` and `bench`: the bulk path on N threads, the same output.
@Suite struct ThreadsOptionTests {
    /// A 256×128 GIF (the smallest canvas a bulk run starts workers for) of 6 frames:
    /// full-canvas noise, then rectangles with transparency and every disposal.
    static func gif() -> Data {
        var rng = SplitMix64(seed: 256)
        var colors: [GIFWriter.Color] = []
        for i in 0..<16 {
            let r = UInt8(i * 16), g = UInt8(255 - i * 9), b = UInt8(i * 5)
            colors.append((r, g, b))
        }
        var w = GIFWriter(width: 256, height: 128, globalColors: colors)
        w.loop(0)
        w.graphicControl(delay: 4)
        w.image(width: 256, height: 128, indices: (0..<(256 * 128)).map { _ in UInt8(rng.next() % 16) })
        for k in 1..<6 {
            w.graphicControl(delay: 4 + k, disposal: k % 4, transparentIndex: 3)
            let rw = 40 + 30 * k, rh = 20 + 15 * k
            w.image(x: 5 * k, y: 3 * k, width: rw, height: rh, indices: (0..<(rw * rh)).map { _ in UInt8(rng.next() % 16) })
        }
        w.trailer()
        return Data(w.bytes)
    }

    /// `frames` of `input` on `threads` threads: every file's bytes, by name.
    static func frames(_ input: URL, threads: String) throws -> [String: Data] {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = ToolRun(["frames", input.path, "--output", dir.path, "--threads", threads])
        #expect(r.status == 0, "\(r.stderr)")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            files[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return files
    }

    @Test func framesWritesTheSameFilesOnOneThreadAndOnSeveral() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("in.gif")
        try Self.gif().write(to: gif)
        let one = try Self.frames(gif, threads: "1")
        #expect(one.count == 7)  // six frames and the manifest
        #expect(try Self.frames(gif, threads: "2") == one)
        #expect(try Self.frames(gif, threads: "4") == one)
    }

    @Test func benchReportsTheThreadsItDecodedOn() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("in.gif")
        try Self.gif().write(to: gif)
        for (asked, used) in [("1", 1), ("3", 3)] {
            let r = ToolRun(["bench", gif.path, "--json", "--min-time", "0", "--no-policies", "--threads", asked])
            #expect(r.status == 0)
            let all = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            #expect(all.first?["threads"] as? Int == used)
            #expect(all.first?["framesDecoded"] as? Int == 6)
        }
        // A canvas under 16,384 pixels decodes one frame after another whatever is asked.
        let small = dir.appendingPathComponent("small.gif")
        try ConvertFixtures.gif().write(to: small)
        let r = ToolRun(["bench", small.path, "--json", "--min-time", "0", "--no-policies", "--threads", "3"])
        let smallRun = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(smallRun.first?["threads"] as? Int == 1)
        // The demo's source decodes one frame after another whatever is asked.
        let demo = ToolRun(["bench", "--demo", "--json", "--min-time", "0", "--no-policies", "--threads", "4"])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(demo.stdout.utf8)) as? [[String: Any]])
        #expect(all.first?["threads"] as? Int == 1)
    }

    @Test func aThreadCountOutOfRangeIsAUsageError() {
        for bad in ["0", "-2", "many", "257"] {
            let r = ToolRun(["frames", "--demo", "--output", "/tmp/unused", "--threads", bad])
            #expect(r.status == 2)
            #expect(r.stderr.contains("option '--threads' needs a whole number from 1 to 256, got '\(bad)'"))
        }
    }
}
