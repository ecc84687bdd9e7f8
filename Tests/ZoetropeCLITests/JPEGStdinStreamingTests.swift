import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `frames -` over a progressive JPEG: `frame-0000.png` is written once the first scan is in,
/// again at each later scan, and the folder ends as `frames FILE`'s.
@Suite struct JPEGStdinStreamingTests {
    /// A progressive 128×96 JPEG (libjpeg-turbo's simple progression, ten scans).
    static func progressive() -> Data { ProgressiveJPEG.gradient(width: 128, height: 96) }

    @Test func theFirstScansPictureIsWrittenBeforeTheRestArrivesAndTheFolderEqualsTheWholeFiles() throws {
        let jpeg = Self.progressive()
        // Through the second scan's header: the first scan is complete and can be drawn.
        let marker = jpeg.ranges(of: Data([0xFF, 0xDA]))[1].upperBound
        let first = marker + (Int(jpeg[marker]) << 8 | Int(jpeg[marker + 1]))
        #expect(first < jpeg.count / 2)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let streamedDir = dir.appendingPathComponent("streamed"), wholeDir = dir.appendingPathComponent("whole")
        let s = try StdinStreamingTests.streamed(
            ["frames", "-", "--output", streamedDir.path], first: jpeg.prefix(first), rest: jpeg.dropFirst(first),
            awaited: [streamedDir.appendingPathComponent("frame-0000.png")], watched: streamedDir)
        #expect(s.arrived, "the first scan's picture was written within the wait")
        #expect(s.beforeRest == ["frame-0000.png"])
        let w = try StdinStreamingTests.wholeFile(["frames", "{}", "--output", wholeDir.path], bytes: jpeg, in: dir)
        #expect(s.result.status == 0 && w.status == 0)
        #expect(s.result.stdout == w.stdout && s.result.stderr == w.stderr)
        #expect(try StdinStreamingTests.contents(of: streamedDir) == StdinStreamingTests.contents(of: wholeDir))
    }

    @Test func aProgressiveJPEGCutShortLeavesNoFrameAndTheWholeFileError() throws {
        let jpeg = Self.progressive()
        let cut = jpeg.prefix(jpeg.count * 3 / 4)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let s = try StdinStreamingTests.withStandardInput(["frames", "-", "--output", out.path], bytes: cut, in: dir)
        let w = try StdinStreamingTests.wholeFile(["frames", "{}", "--output", dir.appendingPathComponent("w").path], bytes: cut, in: dir)
        #expect(s.status == 1 && w.status == 1)
        #expect(s.stderr == w.stderr)
        #expect(s.stderr.contains("truncated"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
