import Foundation
import Testing
import Zoetrope
import ZoetropeCodecs

@testable import ZoetropeTool

/// A format the core has never heard of, registered at run time and used through the
/// same registry and the same `info`/`frames` code as the built-in ones.
@Suite struct CustomCoderTests {
    static let red: [UInt8] = [255, 0, 0, 255], half: [UInt8] = [0, 0, 255, 128]
    static let file = RawFramesCoder.encode(
        width: 2, height: 1, plays: 3,
        frames: [
            (red + half, 40), (half + red, 5),
        ])

    func registry() -> CoderRegistry {
        let r = CoderRegistry.withBuiltInCoders()
        r.register(RawFramesCoder())
        return r
    }

    @Test func theRegistryDecodesItLikeAnyFormat() throws {
        let source = try registry().makeFrameSource(data: Self.file)
        #expect(source.info.format == RawFramesCoder.format)
        #expect(source.info.frameDurations == [.milliseconds(40), .milliseconds(5)])
        #expect(source.info.loopCount == .plays(3))
        #expect(try source.decodeFrame(at: 1).packedBytes == Self.half + Self.red)
        let premultiplied = try RawFramesCoder().makeFrameSource(data: Self.file, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
        #expect(try premultiplied.decodeFrame(at: 0).packedBytes == Self.red + [0, 0, 128, 128])
        #expect(try registry().isAnimated(Self.file))
    }

    @Test func infoAndFramesRunTheSameCodePath() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("anim.bin").path
        try Self.file.write(to: URL(fileURLWithPath: path))
        let reg = registry()
        let info = try ToolRunner.inProcess { try InfoCommand.run([path, "--json"], registry: reg, out: &$0) }
        #expect(info.status == 0)
        let o = try #require((try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(o["format"] as? String == "zraw" && o["plays"] as? Int == 3 && o["storedLoopValue"] as? Int == 3)
        #expect(o["durationsMs"] as? [Int] == [40, 5] && o["displayDurationsMs"] as? [Int] == [40, 100])

        let out = dir.appendingPathComponent("frames").path
        let frames = try ToolRunner.inProcess { try FramesCommand.run([path, "--output", out], registry: reg, out: &$0) }
        #expect(frames.status == 0)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        #expect(manifest["format"] as? String == "zraw" && manifest["frameCount"] as? Int == 2)
        #expect(FileManager.default.fileExists(atPath: out + "/frame-0001.png"))
    }

    @Test func aTruncatedFileYieldsItsCompleteFramesThenSaysSo() throws {
        let cut = Self.file.prefix(Self.file.count - 3)
        let source = try RawFramesCoder().makeFrameSource(data: cut, options: .default)
        #expect(source.info.frameCount == 1)
        #expect(throws: AnimatedImageError.truncated(format: RawFramesCoder.format, completeFrames: 1, reason: "pixel data ends inside frame 1")) {
            try source.decodeFrame(at: 1)
        }
    }

    @Test func limitsAreCheckedBeforeAllocating() {
        let bomb = Data("ZRAW1\n70000 65535 0\n10\n".utf8)
        #expect(throws: AnimatedImageError.limitExceeded(format: RawFramesCoder.format, limit: .width, requested: 70_000, allowed: 65_535)) {
            try RawFramesCoder().makeFrameSource(data: bomb, options: .default)
        }
    }
}
