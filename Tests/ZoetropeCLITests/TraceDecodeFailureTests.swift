import Foundation
import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeEncoding

@testable import ZoetropeTool

/// `zoetrope trace` reports the frames the player could not decode, in the table, in the
/// JSON and in its exit status, as `frames` does.
@Suite struct TraceDecodeFailureTests {
    func run(_ args: [String]) -> (status: Int32, out: String, err: String) {
        let c = TraceCommandTests.Captured()
        var output = Output(standardOutput: { c.out += $0 + "\n" }, standardError: { c.err += $0 + "\n" })
        let status = Tool.run(args, out: &output)
        return (status, c.out, c.err)
    }

    /// A two-frame AVIF sequence whose `mdat` box declares 8 bytes (its header alone): the
    /// file opens, and no frame's data can be read.
    static func avifWithEmptyMdat() throws -> Data {
        var pixels = PixelBuffer(width: 16, height: 16)
        pixels.bytes = [UInt8](repeating: 200, count: 16 * 16 * 4)
        let frames = [
            EncodingFrame(pixels: pixels, duration: .milliseconds(100)),
            EncodingFrame(pixels: pixels, duration: .milliseconds(100)),
        ]
        var file = [UInt8](
            try AVIFEncoder(speed: 10).encode(
                frames, canvasSize: PixelSize(width: 16, height: 16),
                options: EncodingOptions(quality: 50)))
        var p = 0
        while p + 8 <= file.count {
            let size = file[p..<(p + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: file[(p + 4)..<(p + 8)], as: UTF8.self) == "mdat" {
                file[p..<(p + 4)] = [0, 0, 0, 8]
                return Data(file)
            }
            try #require(size >= 8)
            p += size
        }
        throw AnimatedImageError.invalidArgument("no mdat")
    }

    static func write(_ data: Data, _ name: String) throws -> (path: String, dir: URL) {
        let dir = try ToolRunner.temporaryDirectory()
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return (url.path, dir)
    }

    @Test func aFirstFrameThatCannotBeDecodedIsReportedAndFailsTheTrace() throws {
        let (path, dir) = try Self.write(try Self.avifWithEmptyMdat(), "empty-mdat.avif")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run(["frames", path, "--output", dir.appendingPathComponent("frames").path]).status == 1)

        let json = run(["trace", path, "--json"])
        #expect(json.status == 1)
        #expect(json.err.contains("zoetrope: \(path): frame 0: avif:"), "\(json.err)")
        let j = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let ticks = try #require(j["ticks"] as? [[String: Any]])
        let failed = ticks.compactMap { $0["decodeFailed"] as? [[String: Any]] }.flatMap { $0 }
        #expect(failed.count == 1)
        #expect(failed.first?["frame"] as? Int == 0)
        #expect((failed.first?["error"] as? String)?.hasPrefix("avif: ") == true)
        let summary = try #require(j["summary"] as? [String: Any])
        #expect(summary["decodeFailures"] as? Int == 1)
        #expect(summary["framesShown"] as? Int == 0)

        let text = run(["trace", path])
        #expect(text.status == 1)
        #expect(text.out.contains("decode of frame 0 failed: avif:"), "\(text.out)")
        #expect(text.out.contains("1 decode failure"))
    }

    @Test func aLaterFrameThatCannotBeDecodedIsAWarning() throws {
        let (path, dir) = try Self.write(try ConvertBrokenFrameTests.apngBrokenAtFrame3(), "broken.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = run(["trace", path, "--json"])
        #expect(r.status == 0)
        #expect(r.err.contains("zoetrope: warning: \(path): frame 3: apng:"), "\(r.err)")
        let j = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let summary = try #require(j["summary"] as? [String: Any])
        #expect(summary["decodeFailures"] as? Int == 1)
        #expect(summary["framesShown"] as? Int == 3)
        let frames = (j["ticks"] as? [[String: Any]] ?? []).compactMap { $0["frame"] as? Int }
        #expect(frames.max() == 2)
    }
}
