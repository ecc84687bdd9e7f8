import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport
import ZoetropeWebP

/// Every file the tool writes gets the mode a new file gets (0666 less the umask), however
/// it was written: in memory then atomically, or spilled to a private temporary file and
/// renamed into place (a WebP output past 1 MiB).
@Suite struct OutputFileModeTests {
    /// The process's umask, read from /proc (changing it would race with other tests).
    static func umask() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(Int(line.dropFirst(6).filter { !$0.isWhitespace }, radix: 8))
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue) & 0o777
    }

    /// An APNG of three 512×512 frames of noise: its lossless WebP passes 1 MiB, so the
    /// WebP writer spills it to a temporary file.
    static func noiseAPNG() -> Data {
        var rng = SplitMix64(seed: 25)
        let frames = (0..<3).map { _ in
            APNGWriter.Frame(
                width: 512, height: 512,
                rgba: (0..<(512 * 512)).flatMap { _ -> [UInt8] in
                    let v = rng.next()
                    return [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), 255]
                })
        }
        return APNGWriter.animation(width: 512, height: 512, frames: frames).data
    }

    @Test func everyFileTheToolWritesHasTheUsualMode() throws {
        let file = 0o666 & ~(try Self.umask()), folder = 0o777 & ~(try Self.umask())
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = dir.appendingPathComponent("small.gif").path, big = dir.appendingPathComponent("big.png").path
        try ConvertFixtures.gif().write(to: URL(fileURLWithPath: small))
        try Self.noiseAPNG().write(to: URL(fileURLWithPath: big))
        var written: [String] = []

        for ext in ["gif", "png", "webp", "avif"] {
            let out = dir.appendingPathComponent("small-out.\(ext)").path
            #expect(ToolRun(["convert", small, out, "--quiet"]).status == 0)
            written.append(out)
        }
        let bigOut = dir.appendingPathComponent("big-out.webp").path
        #expect(ToolRun(["convert", big, bigOut, "--quiet"]).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: bigOut)[.size] as? Int ?? 0 > 1 << 20)
        written.append(bigOut)

        let batch = dir.appendingPathComponent("batch").path
        #expect(ToolRun(["convert", small, big, "--output-dir", batch, "--format", "webp", "--quiet"]).status == 0)
        written += [batch + "/small.webp", batch + "/big.webp"]

        let frames = dir.appendingPathComponent("frames").path, sheet = dir.appendingPathComponent("sheet.png").path
        #expect(ToolRun(["frames", small, "--output", frames, "--sheet", sheet]).status == 0)
        written += (0..<5).map { frames + "/frame-000\($0).png" } + [frames + "/manifest.json", sheet]

        for path in written {
            let mode = try Self.mode(path)
            #expect(mode == file, "\(path): \(String(mode, radix: 8))")
        }
        for path in [batch, frames] {
            #expect(try Self.mode(path) == folder, "\(path)")
        }
    }

    @Test func aSpilledWebPFinishedIntoAFileHasTheUsualMode() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try ConvertFixtures.registry.makeFrameSource(data: Self.noiseAPNG())
        var encoder = WebPEncoder()
        encoder.spillDirectory = dir
        let url = dir.appendingPathComponent("out.webp")
        let summary = try AnimationConversion.run(
            source: source,
            writer: try encoder.makeWriter(
                canvasSize: source.outputSize, options: EncodingOptions()), to: url)
        #expect(summary.outputByteCount > 1 << 20)
        #expect(try Self.mode(url.path) == 0o666 & ~(try Self.umask()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.webp"])
    }
}
