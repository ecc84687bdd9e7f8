import Foundation
import Testing
import Zoetrope

@testable import ZoetropeTool

@Suite struct BenchCommandTests {
    @Test func demoJSONHasTheStableKeysInOrder() throws {
        let r = ToolRun(["bench", "--demo", "--json", "--min-time", "0"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        let o = try #require(array.first)
        #expect(o["file"] as? String == "demo")
        #expect(o["format"] as? String == "demo")
        #expect(o["width"] as? Int == 756)
        #expect(o["height"] as? Int == 304)
        #expect(o["frameCount"] as? Int == 100)
        // One pass at --min-time 0: every frame decoded exactly once.
        #expect(o["framesDecoded"] as? Int == 100)
        #expect(o["passes"] as? Int == 1)
        let fps = try #require(o["framesPerSecond"] as? Double)
        let mps = try #require(o["megapixelsPerSecond"] as? Double)
        #expect(fps > 0)
        // Megapixels per second is frames per second times the canvas's megapixels.
        #expect(abs(mps - fps * 756 * 304 / 1_000_000) < 0.01)
        #expect((o["firstFrameMs"] as? Double).map { $0 > 0 } == true)
        #expect((o["peakMemoryBytes"] as? Int).map { $0 > 756 * 304 * 4 } == true)
        let held = try #require(o["bytesHeld"] as? [String: Int])
        // One frame is 756 × 304 × 4 = 919,296 bytes. One ahead: the poster and two frames;
        // ahead:4 the poster and five; all: every frame (the poster is frame 0); a 64 MiB
        // budget: the 73 frames that fit, poster included.
        #expect(
            held == [
                "one-ahead": 919_296 * 3, "ahead:4": 919_296 * 6, "all": 919_296 * 100,
                "budget:67108864": 919_296 * 73,
            ])

        // The promised keys come first, in this order.
        #expect(
            Array(r.jsonKeys.prefix(9)) == [
                "file", "format", "width", "height", "frameCount", "framesPerSecond",
                "megapixelsPerSecond", "firstFrameMs", "peakMemoryBytes",
            ])
    }

    @Test func textOutputNamesEachMeasure() {
        let r = ToolRun(["bench", "--demo", "--min-time", "0", "--no-policies"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("demo\n"))
        #expect(!r.stdout.contains("held  "))
        for word in ["frames/s", "MP/s", "first frame", "peak memory"] {
            #expect(r.stdout.contains(word), "missing \(word)")
        }
    }

    @Test func missingFileIsOneErrorLineAndStatus1ButOthersStillRun() throws {
        let r = ToolRun(["bench", "--demo", "/nonexistent/x.gif", "--json", "--min-time", "0", "--no-policies"])
        #expect(r.status == 1)
        #expect(r.stderr == "zoetrope: /nonexistent/x.gif: no such file")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
    }

    @Test func undecodableFileSaysWhy() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-bench-\(UUID()).bin").path
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = ToolRun(["bench", path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("zoetrope: \(path): unrecognized image format"))
        #expect(r.stdout.isEmpty)
    }

    @Test func usageErrorsExit2() {
        #expect(ToolRun(["bench"]).status == 2)
        #expect(
            ToolRun(["bench", "--demo", "--min-time", "soon"]).stderr
                == "zoetrope: option '--min-time' needs seconds from 0 to 3600, got 'soon' (see 'zoetrope --help')")
        #expect(ToolRun(["bench", "--demo", "--fast"]).status == 2)
    }

    @Test func encodedGIFReportsItsHeaderAndTheBytesEachPolicyHolds() throws {
        let r = ToolRun(["bench", EncodedFileFixtures.spinnerGIF, "--json", "--min-time", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(o["format"] as? String == "gif")
        #expect(o["width"] as? Int == 8 && o["height"] as? Int == 8)
        #expect(o["frameCount"] as? Int == 4)
        #expect(o["framesDecoded"] as? Int == 4)
        // 8 × 8 × 4 = 256 bytes a frame: one ahead holds the poster and two frames, the others all four.
        let held = try #require(o["bytesHeld"] as? [String: Int])
        #expect(held == ["one-ahead": 768, "ahead:4": 1024, "all": 1024, "budget:67108864": 1024])
    }
}
