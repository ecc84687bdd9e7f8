import Foundation
import Testing

@testable import ZoetropeTool

/// `zoetrope trace`, run in-process through the tool's dispatcher.
@Suite("zoetrope trace")
struct TraceCommandTests {
    final class Captured {
        var out = ""
        var err = ""
    }

    func run(_ args: [String]) -> (status: Int32, out: String, err: String) {
        let c = Captured()
        var output = Output(standardOutput: { c.out += $0 + "\n" }, standardError: { c.err += $0 + "\n" })
        let status = Tool.run(["trace"] + args, out: &output)
        return (status, c.out, c.err)
    }

    func json(_ args: [String]) throws -> [String: Any] {
        let r = run(args + ["--json"])
        #expect(r.status == 0, "\(r.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    }

    @Test("the JSON has exactly the documented shape")
    func shape() throws {
        let j = try json(["--demo", "--duration", "0.5"])
        #expect(Set(j.keys) == ["source", "frameCount", "ticks", "summary"])
        #expect(j["source"] as? String == "demo")
        #expect(j["frameCount"] as? Int == 100)
        let ticks = try #require(j["ticks"] as? [[String: Any]])
        #expect(ticks.count == 30)  // 60 Hz for 0.5 s
        for t in ticks { #expect(Set(t.keys) == ["t", "frame", "stalled", "skipped", "framesHeld", "bytesHeld"]) }
        let summary = try #require(j["summary"] as? [String: Any])
        #expect(Set(summary.keys) == ["framesShown", "stalls", "skips", "peakBytesHeld", "decodeFailures"])
        #expect(summary["decodeFailures"] as? Int == 0)
        // 0.5 s of 50 ms frames at 60 Hz: frames 0…9, the frame at each tick from its time.
        for t in ticks {
            let time = try #require(t["t"] as? Double)
            #expect(t["frame"] as? Int == Int((time * 1e9 + 0.5) / 50e6))
        }
        #expect(summary["framesShown"] as? Int == 10)
        #expect(summary["peakBytesHeld"] as? Int == 3 * 756 * 304 * 4)
    }

    @Test("the same arguments print the same trace")
    func deterministic() {
        let args = [
            "--demo", "--duration", "2", "--decode-cost", "70", "--refresh", "variable", "--policy", "ahead:3",
            "--late", "catch-up", "--hide-at", "0.5", "--show-at", "1.2", "--rate", "1.5", "--json",
        ]
        let a = run(args), b = run(args)
        #expect(a.status == 0)
        #expect(a.out == b.out)
    }

    @Test("a decode slower than a frame stalls and never skips under stall")
    func stalls() throws {
        let j = try json(["--demo", "--duration", "1", "--decode-cost", "80"])
        let summary = try #require(j["summary"] as? [String: Any])
        #expect((summary["stalls"] as? Int ?? 0) > 0)
        #expect(summary["skips"] as? Int == 0)
        let frames = (j["ticks"] as? [[String: Any]] ?? []).compactMap { $0["frame"] as? Int }
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(b == a || b == a + 1) }
    }

    @Test("hidden time is not counted")
    func hidden() throws {
        let j = try json(["--demo", "--duration", "2", "--hide-at", "0.5", "--show-at", "1.5"])
        let ticks = try #require(j["ticks"] as? [[String: Any]])
        let last = try #require(ticks.last?["frame"] as? Int)
        #expect(last == 19)  // 1 s of play in 2 s: (1.9833 − 1.0) / 0.05
    }

    @Test("N ahead holds at most the poster and N + 1 frames; a budget is respected")
    func policies() throws {
        let frame = 756 * 304 * 4
        let ahead = try json(["--demo", "--duration", "0.5", "--policy", "ahead:4"])
        #expect((ahead["summary"] as? [String: Any])?["peakBytesHeld"] as? Int == 6 * frame)
        let budget = try json(["--demo", "--duration", "0.5", "--policy", "budget:4"])
        let peak = (budget["summary"] as? [String: Any])?["peakBytesHeld"] as? Int ?? .max
        #expect(peak <= 4 * 1_048_576)
    }

    @Test("bad options are usage errors")
    func usage() {
        for args in [
            ["--demo", "--policy", "most"], ["--demo", "--refresh", "0"], ["--demo", "--late", "never"],
            ["--demo", "--rate", "9"], ["--demo", "--show-at", "1"], [],
        ] {
            let r = run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("zoetrope: "))
        }
    }
}
