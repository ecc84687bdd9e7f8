import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `zoetrope trace --arrival`: the player over a file arriving at a simulated rate.
@Suite("zoetrope trace --arrival")
struct TraceArrivalTests {
    /// Six 8×8 frames of 100 ms, each a different colour, looping forever; every frame's
    /// image data is about the same size, so they arrive at an even pace.
    static func gif() throws -> URL {
        var colors: [GIFWriter.Color] = []
        for i in 0..<8 { colors.append((UInt8(i * 30), UInt8(255 - i * 30), 9)) }
        var w = GIFWriter(width: 8, height: 8, globalColors: colors)
        w.loop(0)
        for i in 0..<6 {
            w.graphicControl(delay: 10)
            w.image(width: 8, height: 8, indices: (0..<64).map { UInt8(($0 + i) % 8) })
        }
        w.trailer()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("arrival-\(UUID().uuidString).gif")
        try Data(w.bytes).write(to: url)
        return url
    }

    func run(_ args: [String]) -> (status: Int32, out: String, err: String) {
        final class Captured: @unchecked Sendable { var out = "", err = "" }  // one thread: the tool runs in-process
        let c = Captured()
        var output = Output(standardOutput: { c.out += $0 + "\n" }, standardError: { c.err += $0 + "\n" })
        let status = Tool.run(["trace"] + args, out: &output)
        return (status, c.out, c.err)
    }

    func ticks(_ args: [String]) throws -> [[String: Any]] {
        let r = run(args + ["--json"])
        #expect(r.status == 0, "\(r.err)")
        let j = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        return try #require(j["ticks"] as? [[String: Any]])
    }

    @Test("a slow download stalls only at its edge, in order, with no loop before the last byte")
    func stallsOnlyAtTheEdge() throws {
        let url = try Self.gif()
        defer { try? FileManager.default.removeItem(at: url) }
        let size = try Data(contentsOf: url).count
        // About one frame's bytes every 250 ms: slower than the 100 ms frames.
        let rate = size * 4 / 6
        let ticks = try ticks([url.path, "--arrival", String(rate), "--refresh", "100", "--duration", "3"])
        #expect(ticks.count == 300)
        var shown: [Int] = []
        var loopedAt: Double?
        for t in ticks {
            let time = try #require(t["t"] as? Double)
            let arrived = try #require(t["framesArrived"] as? Int)
            let received = try #require(t["bytesReceived"] as? Int)
            #expect(received == min(size, Int(time * Double(rate) + 1e-6)), "at \(time)")
            guard let frame = t["frame"] as? Int else {
                #expect(arrived == 0, "no frame shown at \(time) with \(arrived) arrived")
                continue
            }
            #expect(frame < arrived, "frame \(frame) shown at \(time) with \(arrived) arrived")
            if t["stalled"] as? Bool == true {
                // Waiting at the download edge: the last frame that has arrived.
                #expect(frame == arrived - 1, "stalled on \(frame) at \(time) with \(arrived) arrived")
                #expect(received < size)
            }
            if shown.last != frame {
                if frame == 0, !shown.isEmpty, loopedAt == nil { loopedAt = time }
                shown.append(frame)
            }
        }
        #expect(Array(shown.prefix(7)) == [0, 1, 2, 3, 4, 5, 0])
        // The loop back to frame 0 comes only once every byte is in.
        let complete = Double(size) / Double(rate)
        #expect(try #require(loopedAt) >= complete)
    }

    @Test("the same arguments print the same trace; a fast download plays as the whole file")
    func deterministicAndFast() throws {
        let url = try Self.gif()
        defer { try? FileManager.default.removeItem(at: url) }
        let args = [url.path, "--arrival", "700", "--refresh", "variable", "--late", "catch-up", "--json"]
        let a = run(args), b = run(args)
        #expect(a.status == 0)
        #expect(a.out == b.out)
        // Everything arrives before the first tick after 0: one stalled tick at 0, then on time.
        let fast = try ticks([url.path, "--arrival", "1000000000", "--refresh", "100", "--duration", "1"])
        let stalls = fast.filter { $0["stalled"] as? Bool == true }.count
        #expect(stalls == 1)
        for t in fast.dropFirst() {
            let time = try #require(t["t"] as? Double)
            #expect(t["frame"] as? Int == (Int((time - 0.01) * 10 + 1e-6)) % 6, "at \(time)")
        }
    }

    @Test("--arrival needs a file and a positive rate")
    func usage() throws {
        let url = try Self.gif()
        defer { try? FileManager.default.removeItem(at: url) }
        for args in [["--demo", "--arrival", "1000"], [url.path, "--arrival", "0"], [url.path, "--arrival", "fast"]] {
            let r = run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("zoetrope: "))
        }
    }
}
