import Foundation
import Testing
import Zoetrope
import ZoetropeColorTestSupport
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `zoetrope info` shows the colour a file declares: the ICC profile's description, the
/// other declarations, and whether frames are converted or are sRGB already.
@Suite struct InfoColorTests {
    /// Adobe RGB (1998) made here with lcms2, described as "Test Adobe RGB".
    static func adobeRGB() -> [UInt8] { LCMSProfiles.adobeRGB(description: "Test Adobe RGB") }

    static func png(_ chunks: [(String, [UInt8])]) -> Data {
        var w = APNGWriter.animation(width: 2, height: 2, frames: [.solid(width: 2, height: 2, [128, 64, 200, 255])])
        for (i, c) in chunks.enumerated() { w.chunks.insert(APNGWriter.Chunk(type: c.0, payload: c.1), at: 1 + i) }
        return w.data
    }

    @Test func infoShowsTheProfileAndTheConversion() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tagged = dir.appendingPathComponent("adobe.png").path, srgb = dir.appendingPathComponent("srgb.png").path
        let untagged = dir.appendingPathComponent("plain.png").path
        let profile = Self.adobeRGB()
        try Self.png([("iCCP", Array("icc".utf8) + [0, 0] + APNGWriter.zlibStored(profile))]).write(to: URL(fileURLWithPath: tagged))
        try Self.png([("sRGB", [0]), ("gAMA", [0, 0, 0xB1, 0x8F])]).write(to: URL(fileURLWithPath: srgb))
        try Self.png([]).write(to: URL(fileURLWithPath: untagged))

        let run = ToolRun(["info", tagged, srgb, untagged, "--json"])
        #expect(run.status == 0)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 3)
        let color = try #require(objects[0]["color"] as? [String: Any])
        let icc = try #require(color["icc"] as? [String: Any])
        #expect(icc["description"] as? String == "Test Adobe RGB")
        #expect(icc["bytes"] as? Int == profile.count)
        #expect(color["sRGB"] as? Bool == false)
        #expect(color["outcome"] as? String == "converted to sRGB")
        let plain = try #require(objects[1]["color"] as? [String: Any])
        #expect(plain["sRGB"] as? Bool == true)
        #expect(plain["srgbIntent"] as? Int == 0)
        #expect(plain["gamma"] as? Int == 45455)
        #expect(objects[2]["color"] == nil)

        let text = ToolRun(["info", tagged])
        #expect(text.stdout.contains("  colour     ICC \"Test Adobe RGB\""))
        #expect(text.stdout.contains("converted to sRGB"))
    }
}
