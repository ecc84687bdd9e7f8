import CTurboJPEG
import Foundation
import Testing
import ZoetropeTestSupport

/// The tool on a JPEG still: the real binary, a file made with libjpeg-turbo's compressor.
@Suite struct JPEGInfoTests {
    /// A 24×16 JPEG with an Exif orientation of 6 (shown turned a quarter turn clockwise).
    static func photo() -> Data {
        let pixels = (0..<(24 * 16)).flatMap { (i: Int) -> [UInt8] in [UInt8(i % 24 * 10), UInt8(i / 24 * 15), 90, 255] }
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        precondition(
            tjCompress2(
                handle, pixels, 24, 96, 16, Int32(TJPF_RGBA.rawValue), &out, &size,
                Int32(TJSAMP_420.rawValue), 90, 0) == 0)
        defer { tjFree(out) }
        let jpeg = Data(bytes: out!, count: Int(size))
        // APP1: "Exif\0\0", "II", 42, IFD0 at 8, one entry: Orientation (0x0112), SHORT, 1, 6.
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload
        return jpeg.prefix(2) + Data(app1) + jpeg.dropFirst(2)
    }

    @Test func aJPEGReadWithAWarningDecodesAndSaysSo() throws {
        // FF 00 pairs before the first DQT: libjpeg-turbo skips them with a warning.
        let clean = [UInt8](Self.photo())
        let dqt = try #require(clean.indices.first { clean[$0] == 0xFF && clean[$0 + 1] == 0xDB })
        let damaged = Data(clean[..<dqt] + [0xFF, 0x00, 0xFF, 0x00] + clean[dqt...])
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ff00.jpg")
        try damaged.write(to: file)
        let warning = "Corrupt JPEG data: 4 extraneous bytes before marker 0xdb"
        let info = ToolRun(["info", file.path, "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        let o = try #require((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(o["frameCount"] as? Int == 1)
        #expect(o["warnings"] as? [String] == [warning])
        let out = dir.appendingPathComponent("out").path
        let frames = ToolRun(["frames", file.path, "--output", out])
        #expect(frames.status == 0)
        #expect(frames.stderr.contains(warning))
        #expect(FileManager.default.fileExists(atPath: out + "/frame-0000.png"))
    }

    @Test func framesReportsTheDataErrorsLibjpegTurboConceals() throws {
        var bytes = [UInt8](Self.photo())
        let sos = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        // A restart marker in the middle of a scan that has none: libjpeg-turbo conceals the rest.
        let middle = (sos + bytes.count) / 2
        bytes[middle] = 0xFF
        bytes[middle + 1] = 0xD0
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("damaged.jpg")
        try Data(bytes).write(to: file)
        let out = dir.appendingPathComponent("out").path
        let frames = ToolRun(["frames", file.path, "--output", out])
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(frames.stderr.contains("zoetrope: warning: \(file.path): Corrupt JPEG data"))
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        let warnings = try #require(manifest["warnings"] as? [String])
        #expect(warnings == ["Corrupt JPEG data: premature end of data segment"])
    }

    @Test func infoAndFramesReadAJPEGStillTurnedByItsOrientation() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("photo.jpg")
        try Self.photo().write(to: file)
        let r = try ToolRunner.binary(["info", file.path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let all = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let o = try #require(all.first)
        #expect(o["format"] as? String == "jpeg")
        #expect(o["width"] as? Int == 16 && o["height"] as? Int == 24)
        #expect(o["frameCount"] as? Int == 1)
        let frames = try ToolRunner.binary(["frames", file.path, "--output", dir.appendingPathComponent("out").path])
        #expect(frames.status == 0, "\(frames.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).sorted()
        #expect(names == ["frame-0000.png", "manifest.json"])
    }
}
