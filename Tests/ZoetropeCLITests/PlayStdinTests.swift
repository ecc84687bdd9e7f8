import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `zoetrope play -` through the real binary, standard output not a terminal: the animation
/// read from standard input as it arrives plays once, every frame in order, and ends as
/// `play FILE` ends on the same bytes.
@Suite struct PlayStdinTests {
    /// Runs `play -` (plus `arguments`) with `first` on standard input, then after `pause`
    /// seconds `rest`, then the end of input.
    static func play(_ arguments: [String] = [], first: Data, rest: Data, pause: Double) throws -> ToolRunner.Result {
        let p = Process()
        p.executableURL = ToolRunner.binary
        p.arguments = ["play", "-"] + arguments
        let input = Pipe()
        p.standardInput = input
        return try ToolRunner.collect(p) {
            input.fileHandleForWriting.write(first)
            Thread.sleep(forTimeInterval: pause)
            if p.isRunning, !rest.isEmpty { input.fileHandleForWriting.write(rest) }
            try input.fileHandleForWriting.close()
        }
    }

    /// The summary line without its time: "NAME: played 1 time, 8 frames shown (…)".
    static func summary(_ stdout: String) -> String {
        stdout.replacingOccurrences(of: #" in [0-9.]+ s "#, with: " ", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aGIFArrivingInTwoHalvesPlaysEveryFrameOnceAsTheWholeFileDoes() throws {
        let (bytes, ends) = StdinStreamingTests.gif()
        let half = ends[3]
        let streamed = try Self.play(first: bytes[..<half], rest: bytes[half...], pause: 0.4)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(streamed.stderr.isEmpty)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try StdinStreamingTests.wholeFile(["play", "{}"], bytes: bytes, in: dir)
        #expect(whole.status == 0)
        // Frames shown, plays and bytes held: the same as the whole file's.
        #expect(Self.summary(streamed.stdout) == Self.summary(whole.stdout))
        #expect(Self.summary(streamed.stdout).hasPrefix("standard input: played 1 time, 8 frames shown"))
    }

    @Test func aTruncatedFileArrivingPlaysTheFramesItHas() throws {
        let (bytes, ends) = StdinStreamingTests.gif()
        let cut = bytes[..<(ends[4] + 10)]
        let streamed = try Self.play(first: cut[..<ends[1]], rest: cut[ends[1]...], pause: 0.2)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try StdinStreamingTests.wholeFile(["play", "{}"], bytes: Data(cut), in: dir)
        #expect(streamed.status == whole.status)
        #expect(Self.summary(streamed.stdout) == Self.summary(whole.stdout))
        #expect(Self.summary(streamed.stdout).hasPrefix("standard input: played 1 time, 5 frames shown"))
    }

    @Test func bytesNoCoderReadsGiveTheWholeFileError() throws {
        let garbage = Data("not an animation at all, just text".utf8)
        let streamed = try Self.play(first: garbage, rest: Data(), pause: 0)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try StdinStreamingTests.wholeFile(["play", "{}"], bytes: garbage, in: dir)
        #expect(streamed.status == 1)
        #expect(streamed.status == whole.status)
        #expect(streamed.stderr == whole.stderr)
    }
}
