import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `info`, `frames` and `audit` agree on a file the decoder works around: a GIF
/// whose frames have no colour table keeps its canvas, all its frames and a warning.
@Suite struct DecoderWarningsCLITests {
    static func noColourTableGIF() -> Data {
        var w = GIFWriter(width: 1, height: 1)
        w.graphicControl(delay: 10)
        w.image(width: 1, height: 1, indices: [1])
        w.graphicControl(delay: 10)
        w.image(width: 1, height: 1, indices: [2])
        return Data(w.file)
    }

    static let warning =
        "frame 0 has no colour table (neither local nor global) (and 1 more frame like it): indices without a colour are drawn opaque black, as Chromium does"

    @Test func infoFramesAndAuditAgreeOnAGIFWithoutColourTables() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("no-colours.gif").path
        try Self.noColourTableGIF().write(to: URL(fileURLWithPath: path))

        let info = ToolRun(["info", path, "--json"])
        #expect(info.status == 0)
        let o = try #require((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(o["width"] as? Int == 1 && o["height"] as? Int == 1 && o["frameCount"] as? Int == 2)
        #expect(o["warnings"] as? [String] == [Self.warning])

        let out = dir.appendingPathComponent("frames").path
        let frames = ToolRun(["frames", path, "--output", out])
        #expect(frames.status == 0)
        #expect(frames.stderr.contains(Self.warning))
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        #expect(manifest["width"] as? Int == 1 && manifest["height"] as? Int == 1)
        #expect(manifest["frameCount"] as? Int == 2)
        #expect(manifest["warnings"] as? [String] == [Self.warning])
        #expect(FileManager.default.fileExists(atPath: out + "/frame-0001.png"))

        let audit = ToolRun(["audit", path])
        #expect(audit.stdout.contains("no colour table"))
    }

    @Test func infoAndFramesAgreeOnAStillWhoseOnlyFrameHasABadCRC() throws {
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 2, height: 2))
        w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rgba: [UInt8](repeating: 200, count: 16), width: 2, height: 2)))
        w.append("IEND", [])
        let k = try #require(w.chunks.indices.first { w.chunks[$0].type == "IDAT" })
        w.chunks[k].crcOverride = 0
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad-crc.png").path
        try w.data.write(to: URL(fileURLWithPath: path))
        let info = ToolRun(["info", path])
        let frames = ToolRun(["frames", path, "--output", dir.appendingPathComponent("frames").path])
        #expect(info.status == 1 && frames.status == 1)
        #expect(info.stdout.isEmpty)
        #expect(info.stderr == "zoetrope: \(path): png: invalid data: IDAT CRC mismatch")
        #expect(frames.stderr == info.stderr)
        // The same image with a good CRC: one frame counted, one written.
        w.chunks[k].crcOverride = nil
        try w.data.write(to: URL(fileURLWithPath: path))
        #expect(ToolRun(["info", path]).stdout.contains("frames     1 (still)"))
        let out = dir.appendingPathComponent("good").path
        #expect(ToolRun(["frames", path, "--output", out]).status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/frame-0000.png"))
    }

    @Test func theManifestKeepsTheCanvasSizeWhenALaterFrameFails() throws {
        // An APNG whose frame 1 fails to decode (its fdAT CRC is wrong): frame 0 is written,
        // and the manifest still says 2×2.
        var w = APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, [255, 0, 0, 255]), .solid(width: 2, height: 2, [0, 255, 0, 255]),
            ])
        let k = try #require(w.chunks.indices.first { w.chunks[$0].type == "fdAT" })
        w.chunks[k].crcOverride = 0
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.png").path
        try w.data.write(to: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent("frames").path
        let frames = ToolRun(["frames", path, "--output", out])
        #expect(frames.status == 0)
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        #expect(manifest["frameCount"] as? Int == 1)
        #expect(manifest["width"] as? Int == 2 && manifest["height"] as? Int == 2)
        #expect(manifest["warning"] is String)
        // info counts both frames and says why frames writes one.
        let info = ToolRun(["info", path, "--json"])
        #expect(info.status == 0)
        let o = try #require((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(o["frameCount"] as? Int == 2)
        #expect(o["warnings"] as? [String] == ["frame 1 does not decode (fdAT CRC mismatch): decoding stops after the 1 frame before it"])
    }
}
