import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// `frames -` and `info -` through the real binary: standard input read as it arrives, with
/// the same output as the whole-file commands on the same bytes.
@Suite struct StdinStreamingTests {
    // MARK: - Fixtures

    /// A 48×48 GIF of 8 frames of noise (so each frame takes about 2 KB), looping forever,
    /// with the offset where each frame's bytes end.
    static func gif() -> (bytes: Data, frameEnds: [Int]) {
        var rng = SplitMix64(seed: 15)
        let palette: [GIFWriter.Color] = (0..<16).map { (i: Int) -> GIFWriter.Color in
            let v = UInt8(i * 16)
            return (r: v, g: 255 - v, b: UInt8(i * 7))
        }
        var w = GIFWriter(width: 48, height: 48, globalColors: palette)
        w.loop(0)
        var ends: [Int] = []
        for i in 0..<8 {
            w.graphicControl(delay: 4 + i)
            w.image(width: 48, height: 48, indices: (0..<48 * 48).map { _ in UInt8(rng.next() % 16) })
            ends.append(w.bytes.count)
        }
        return (Data(w.file), ends)
    }

    /// An APNG of 8 frames (32×32, each its own colour, 100 ms), with the offset by which
    /// each frame is known to be complete; `breakFrame` gives that frame's fcTL a wrong sequence number, which
    /// makes the whole file its still image.
    static func apng(breakFrame: Int? = nil) -> (bytes: Data, frameEnds: [Int]) {
        let frames = (0..<8).map { i in
            APNGWriter.Frame.solid(width: 32, height: 32, [UInt8(i * 30), 200, UInt8(255 - i * 30), 255])
        }
        var w = APNGWriter.animation(width: 32, height: 32, frames: frames, plays: 2)
        let fcTLs = w.chunks.indices.filter { w.chunks[$0].type == "fcTL" }
        if let breakFrame { w.chunks[fcTLs[breakFrame]].payload[3] ^= 0x40 }
        // A frame is known to be complete once the next fcTL (or the IEND) is in.
        var offset = 8, ends: [Int] = []
        for c in w.chunks {
            offset += 12 + c.payload.count
            if c.type == "fcTL" || c.type == "IEND" { ends.append(offset) }
        }
        return (w.data, Array(ends.dropFirst()))
    }

    // MARK: - Running the tool

    /// The files of a folder, by name (empty when it does not exist).
    static func contents(of dir: URL) throws -> [String: Data] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [:] }
        var all: [String: Data] = [:]
        for n in names { all[n] = try Data(contentsOf: dir.appendingPathComponent(n)) }
        return all
    }

    /// What `zoetrope args` gives for `bytes` written to a file whose path replaces `{}`,
    /// with the path in its messages replaced by "standard input".
    static func wholeFile(_ args: [String], bytes: Data, in dir: URL) throws -> ToolRunner.Result {
        let path = dir.appendingPathComponent("input.bin").path
        try bytes.write(to: URL(fileURLWithPath: path))
        var r = try ToolRunner.binary(args.map { $0 == "{}" ? path : $0 })
        r.stdout = r.stdout.replacingOccurrences(of: path, with: "standard input")
        r.stderr = r.stderr.replacingOccurrences(of: path, with: "standard input")
        return r
    }

    /// Runs the binary with `arguments`, standard input a pipe: writes `first`, waits until
    /// every file in `awaited` exists (up to 20 s) and lists `watched` then, writes `rest`
    /// and closes the pipe. Returns the run and the listing taken before `rest` was sent.
    static func streamed(
        _ arguments: [String], first: Data, rest: Data, awaited: [URL],
        watched: URL
    ) throws -> (result: ToolRunner.Result, beforeRest: Set<String>, arrived: Bool) {
        let p = Process()
        p.executableURL = ToolRunner.binary
        p.arguments = arguments
        let input = Pipe()
        let logs = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let outURL = logs.appendingPathComponent("out"), errURL = logs.appendingPathComponent("err")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        p.standardInput = input
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        try p.run()
        input.fileHandleForWriting.write(first)
        // A bound on a hang only: the loop ends as soon as the files exist.
        let deadline = Date().addingTimeInterval(60)
        var arrived = false
        while Date() < deadline, p.isRunning {
            if awaited.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) { arrived = true; break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let beforeRest = Set((try? FileManager.default.contentsOfDirectory(atPath: watched.path)) ?? [])
        if p.isRunning { input.fileHandleForWriting.write(rest) }
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        let result = ToolRunner.Result(
            status: p.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
        return (result, beforeRest, arrived)
    }

    /// Runs the binary with `arguments` and `bytes` as standard input (read from a file, so
    /// the tool may stop reading early, as it does on input that fails at its first bytes).
    static func withStandardInput(_ arguments: [String], bytes: Data, in dir: URL) throws -> ToolRunner.Result {
        let path = dir.appendingPathComponent("stdin.bin")
        try bytes.write(to: path)
        let p = Process()
        p.executableURL = ToolRunner.binary
        p.arguments = arguments
        p.standardInput = try FileHandle(forReadingFrom: path)
        return try ToolRunner.collect(p)
    }

    /// Streams `bytes` to `frames - --output` in two halves and checks that the frames
    /// complete in the first half are on disk before the second is sent, and that the
    /// folder then equals `frames FILE`'s. Returns the frames seen before the rest.
    @discardableResult
    static func checkFramesStreamed(_ bytes: Data, frameEnds: [Int]) throws -> Set<String> {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let half = bytes.count / 2
        let complete = frameEnds.filter { $0 < half }.count
        #expect(complete >= 2, "the fixture's first half holds at least two whole frames")
        let streamedDir = dir.appendingPathComponent("streamed"), wholeDir = dir.appendingPathComponent("whole")
        let awaited = (0..<complete).map { streamedDir.appendingPathComponent(FramesOutput.frameName($0)) }
        let s = try streamed(
            ["frames", "-", "--output", streamedDir.path], first: bytes.prefix(half),
            rest: bytes.dropFirst(half), awaited: awaited, watched: streamedDir)
        #expect(s.arrived, "frames 0..<\(complete) were written within 20 s of the first half")
        #expect(s.beforeRest.isSuperset(of: awaited.map(\.lastPathComponent)))
        #expect(!s.beforeRest.contains("manifest.json"), "the manifest waits for the end of input")
        let w = try wholeFile(["frames", "{}", "--output", wholeDir.path], bytes: bytes, in: dir)
        #expect(s.result.status == w.status && s.result.stdout == w.stdout && s.result.stderr == w.stderr)
        let streamedFiles = try contents(of: streamedDir), wholeFiles = try contents(of: wholeDir)
        #expect(streamedFiles.keys.sorted() == wholeFiles.keys.sorted())
        #expect(streamedFiles == wholeFiles, "every PNG and the manifest are byte-identical")
        return s.beforeRest
    }

    // MARK: - frames -

    @Test func aGIFsFirstFramesAreWrittenBeforeTheRestArrivesAndTheFolderEqualsTheWholeFiles() throws {
        let (bytes, ends) = Self.gif()
        try Self.checkFramesStreamed(bytes, frameEnds: ends)
    }

    @Test func anAPNGsFirstFramesAreWrittenBeforeTheRestArrivesAndTheFolderEqualsTheWholeFiles() throws {
        let (bytes, ends) = Self.apng()
        try Self.checkFramesStreamed(bytes, frameEnds: ends)
    }

    @Test func anAPNGWhoseAnimationBreaksLaterEndsAsItsStillImageAsTheWholeFileDoes() throws {
        let (bytes, ends) = Self.apng(breakFrame: 6)
        let before = try Self.checkFramesStreamed(bytes, frameEnds: ends)
        // Frames 1… were written while the animation looked valid, then deleted again.
        #expect(before.contains("frame-0001.png"))
    }

    @Test func aTruncatedGIFThroughStandardInputWritesWhatTheWholeFileWrites() throws {
        let (bytes, ends) = Self.gif()
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for cut in [ends[4] + 100, ends[0] - 100] {
            let part = bytes.prefix(cut)
            let a = dir.appendingPathComponent("stdin-\(cut)"), b = dir.appendingPathComponent("file-\(cut)")
            let s = try Self.withStandardInput(["frames", "-", "--output", a.path], bytes: part, in: dir)
            let w = try Self.wholeFile(["frames", "{}", "--output", b.path], bytes: part, in: dir)
            #expect(s.status == w.status && s.stdout == w.stdout && s.stderr == w.stderr)
            #expect(try Self.contents(of: a) == Self.contents(of: b))
            #expect(try Self.contents(of: a).count == (cut > ends[0] ? 6 : 0))
        }
    }

    @Test func inputThatCannotBeDecodedGivesTheWholeFileErrorAndExitStatus() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var badIHDR = APNGWriter.animation(width: 8, height: 8, frames: [.solid(width: 8, height: 8, [1, 2, 3, 255])])
        badIHDR.chunks[0].crcOverride = 1
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })
        for bytes in [badIHDR.data, garbage, Data(Self.gif().bytes.prefix(10))] {
            let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
            let s = try Self.withStandardInput(["frames", "-", "--output", a.path], bytes: bytes, in: dir)
            let w = try Self.wholeFile(["frames", "{}", "--output", b.path], bytes: bytes, in: dir)
            #expect(s.status == 1 && w.status == 1)
            #expect(s.stderr == w.stderr && s.stderr.hasPrefix("zoetrope: standard input: "))
            #expect(s.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: a.path) && !FileManager.default.fileExists(atPath: b.path))
        }
    }

    @Test func emptyStandardInputIsAClearError() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["frames", "-", "--output", dir.appendingPathComponent("out").path], ["info", "-"]] {
            let r = try Self.withStandardInput(args, bytes: Data(), in: dir)
            #expect(r.status == 1)
            #expect(r.stderr == "zoetrope: standard input: empty (no bytes before the end of input)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    // MARK: - info -

    @Test func infoFromStandardInputEqualsInfoOnTheFile() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (gif, gifEnds) = Self.gif()
        let inputs = [gif, Self.apng().bytes, Self.apng(breakFrame: 3).bytes, gif.prefix(gifEnds[2] + 50)]
        for bytes in inputs {
            for json in [false, true] {
                let args = json ? ["--json"] : []
                let s = try Self.streamed(
                    ["info", "-"] + args, first: bytes.prefix(bytes.count / 2),
                    rest: bytes.dropFirst(bytes.count / 2), awaited: [], watched: dir)
                let w = try Self.wholeFile(["info", "{}"] + args, bytes: bytes, in: dir)
                #expect(s.result.status == 0 && w.status == 0)
                #expect(s.result.stdout == w.stdout && s.result.stderr == w.stderr)
                #expect(s.result.stdout.contains(json ? "\"file\": \"standard input\"" : "standard input\n  format"))
            }
        }
    }

    // MARK: - The corpus

    /// `sh -c 'dd … | zoetrope ARGS'`: the file reaches standard input in 4 KiB writes.
    static func piped(_ file: URL, _ arguments: [String]) throws -> ToolRunner.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "dd if=\"$0\" bs=4096 status=none | \"$@\"", file.path, ToolRunner.binary.path] + arguments
        return try ToolRunner.collect(p)
    }

    @Test(
        .enabled(if: CorpusLocation.isPresent, "the conformance corpus is missing"),
        arguments: ["gif", "apng", "webp", "avif"])
    func everyCorpusFileThroughStandardInputGivesTheWholeFileOutput(format: String) throws {
        let root = try #require(CorpusLocation.corpus()).appendingPathComponent(format)
        let files = (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { ["gif", "png", "webp", "avif"].contains($0.pathExtension) && !$0.path.contains(".frames/") }
            .sorted { $0.path < $1.path }
        #expect(!files.isEmpty, "the corpus has \(format) inputs")
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, file) in files.enumerated() {
            let a = dir.appendingPathComponent("stdin-\(i)"), b = dir.appendingPathComponent("file-\(i)")
            let s = try Self.piped(file, ["frames", "-", "--output", a.path])
            var w = try ToolRunner.binary(["frames", file.path, "--output", b.path])
            w.stderr = w.stderr.replacingOccurrences(of: file.path, with: "standard input")
            #expect(s.status == w.status && s.stderr == w.stderr, "\(file.lastPathComponent)")
            #expect(try Self.contents(of: a) == Self.contents(of: b), "\(file.lastPathComponent)")
            let si = try Self.piped(file, ["info", "-", "--json"])
            var wi = try ToolRunner.binary(["info", file.path, "--json"])
            wi.stdout = wi.stdout.replacingOccurrences(of: file.path, with: "standard input")
            wi.stderr = wi.stderr.replacingOccurrences(of: file.path, with: "standard input")
            #expect(si.status == wi.status && si.stdout == wi.stdout && si.stderr == wi.stderr, "\(file.lastPathComponent)")
        }
    }
}
