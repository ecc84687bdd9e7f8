import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// End to end: an APNG whose four delays have coprime denominators near 65535 used to trap
/// `zoetrope info` in `FrameDuration`'s arithmetic (the exact total needs a 64-bit denominator).
@Suite struct ExtremeDurationTests {
    static func coprimeDelayAPNG() -> Data {
        let frames = [65535, 65534, 65533, 65531].map { den in
            APNGWriter.Frame.solid(width: 1, height: 1, [255, 0, 0, 255], delayNumerator: 1, delayDenominator: UInt16(den))
        }
        return APNGWriter.animation(width: 1, height: 1, frames: frames).data
    }

    @Test func infoReportsTheTotalOfCoprimeDelays() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("coprime.png")
        try Self.coprimeDelayAPNG().write(to: file)
        let json = ToolRun(["info", file.path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let all = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let o = try #require(all.first)
        #expect(o["format"] as? String == "apng" && o["frameCount"] as? Int == 4)
        // 1/65535 + 1/65534 + 1/65533 + 1/65531 s = 0.061041… ms, rounded to 0.001 ms.
        #expect(o["totalDurationMs"] as? Double == 0.061)
        #expect(o["displayTotalDurationMs"] as? Int == 400)
        let text = ToolRun(["info", file.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("0.061 ms raw, 400 ms displayed"))
    }
}
