import Foundation
import Testing
import ZoetropeTestSupport

@testable import ZoetropeTool

/// The real binary reading http URLs from a real server on loopback: the same output as for
/// the file, frames written as the bytes arrive, the disk cache, HTTP errors.
@Suite struct URLInputTests {
    /// A file holding `bytes` in a new folder.
    static func file(_ bytes: Data, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("input.gif").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func infoOfAURLMatchesInfoOfTheFile() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = StdinStreamingTests.gif().bytes
        server.serve("a.gif", .ok(gif))
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(gif, in: dir)
        let url = server.url("a.gif").absoluteString
        for extra in [[], ["--json"]] {
            let fromURL = try ToolRunner.binary(["info", url] + extra)
            let fromFile = try ToolRunner.binary(["info", path] + extra)
            #expect(fromURL.status == 0, "\(fromURL.stderr)")
            #expect(fromURL.stderr.isEmpty)
            #expect(fromURL.stdout.replacingOccurrences(of: url, with: path) == fromFile.stdout)
            #expect(fromURL.stdout.contains(url))
        }
    }

    @Test func framesOfAURLEqualFramesOfTheFile() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = StdinStreamingTests.gif().bytes
        server.serve("a.gif", .ok(gif))
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.file(gif, in: dir)
        let fromURL = try ToolRunner.binary(["frames", server.url("a.gif").absoluteString, "--output", dir.appendingPathComponent("url").path])
        let fromFile = try ToolRunner.binary(["frames", path, "--output", dir.appendingPathComponent("file").path])
        #expect(fromURL.status == 0, "\(fromURL.stderr)")
        #expect(fromFile.status == 0)
        let urlFrames = try StdinStreamingTests.contents(of: dir.appendingPathComponent("url"))
        #expect(urlFrames.count == 9)  // 8 frames and the manifest
        #expect(urlFrames == (try StdinStreamingTests.contents(of: dir.appendingPathComponent("file"))))
    }

    /// The server sends the first two frames' bytes and holds the rest until the test has
    /// seen frame 0's PNG on disk (or 60 s passed): it must appear while the rest is held.
    @Test func framesOfATrickledURLAreWrittenAsTheyArrive() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (gif, ends) = StdinStreamingTests.gif()
        let gate = LoopbackGate()
        defer { gate.open() }
        var response = LoopbackHTTPResponse.ok(gif).trickled(512, every: .milliseconds(1))
        response.holdAfter = ends[1]
        response.gate = gate
        server.serve("slow.gif", response)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("url")
        let p = Process()
        p.executableURL = ToolRunner.binary
        p.arguments = ["frames", server.url("slow.gif").absoluteString, "--output", out.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let first = out.appendingPathComponent("frame-0000.png")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, p.isRunning, !FileManager.default.fileExists(atPath: first.path) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let arrivedBeforeRest = FileManager.default.fileExists(atPath: first.path)
        let sentBeforeRest = server.bodyBytesSent("slow.gif")
        gate.open()
        p.waitUntilExit()
        #expect(arrivedBeforeRest)
        #expect(sentBeforeRest < gif.count)
        #expect(p.terminationStatus == 0)
        let path = try Self.file(gif, in: dir)
        _ = try ToolRunner.binary(["frames", path, "--output", dir.appendingPathComponent("file").path])
        #expect(try StdinStreamingTests.contents(of: out) == (try StdinStreamingTests.contents(of: dir.appendingPathComponent("file"))))
    }

    @Test func theDiskCacheServesAFreshResponseWithoutARequest() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = StdinStreamingTests.gif().bytes
        server.serve("a.gif", .ok(gif, headers: [("Cache-Control", "public, max-age=600")]))
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache").path
        let url = server.url("a.gif").absoluteString
        let first = try ToolRunner.binary(["info", url, "--cache", cache])
        let second = try ToolRunner.binary(["info", url, "--cache", cache])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(server.requestCount("a.gif") == 1)
        // Without --cache every run asks.
        _ = try ToolRunner.binary(["info", url])
        #expect(server.requestCount("a.gif") == 2)
    }

    @Test func anHTTPErrorIsOneLineAndExitStatus1() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = server.url("missing.gif").absoluteString
        for args in [
            ["info", url], ["frames", url, "--output", dir.appendingPathComponent("f").path],
            ["convert", url, dir.appendingPathComponent("o.webp").path], ["play", url], ["audit", url],
        ] {
            let r = try ToolRunner.binary(args)
            #expect(r.status == 1, "\(args[0])")
            #expect(r.stderr == "zoetrope: \(url): the server answered HTTP 404 (Not Found)\n", "\(args[0])")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("f").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.webp").path))
    }

    @Test func convertReadsAURL() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = StdinStreamingTests.gif().bytes
        server.serve("a.gif", .ok(gif))
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.webp")
        let r = try ToolRunner.binary(["convert", server.url("a.gif").absoluteString, out.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let (info, frames) = try ConvertFixtures.decode(try Data(contentsOf: out))
        let (sourceInfo, sourceFrames) = try ConvertFixtures.decode(gif)
        #expect(info.format == .webp)
        #expect(info.frameCount == sourceInfo.frameCount)
        #expect(frames.map(\.packedBytes) == sourceFrames.map(\.packedBytes))  // lossless WebP by default
    }

    @Test func playAndAuditReadAURL() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gif = StdinStreamingTests.gif().bytes
        server.serve("a.gif", .ok(gif))
        let url = server.url("a.gif").absoluteString
        let play = try ToolRunner.binary(["play", url])
        #expect(play.status == 0, "\(play.stderr)")
        #expect(play.stdout.hasPrefix("\(url): played 1 time, 8 frames shown"), "\(play.stdout)")
        let audit = try ToolRunner.binary(["audit", url, "--json"])
        #expect(audit.status == 0, "\(audit.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any]
        let files = report?["files"] as? [[String: Any]] ?? []
        #expect(files.count == 1)
        #expect(files.first?["path"] as? String == url)
        #expect(files.first?["frameCount"] as? Int == 8)
    }
}
