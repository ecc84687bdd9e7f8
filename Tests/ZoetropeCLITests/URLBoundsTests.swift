import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeTool

#if canImport(Glibc)
import Glibc
#endif

/// What the tool and its downloader hold and how long they wait, whatever a server sends.
@Suite struct URLBoundsTests {
    /// `--timeout` is the whole download's deadline: a server that sends a byte every 100 ms
    /// never looks idle, and the run ends after the deadline with one line.
    @Test func timeoutIsTheWholeDownloadsDeadline() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = Data(repeating: 0x47, count: 600)
        server.serveTrickle("drip.gif", head: "HTTP/1.1 200 OK\r\nContent-Length: 600", body: body, bytes: 1, every: .milliseconds(100))
        let url = server.url("drip.gif").absoluteString
        let result = try ToolRunner.binary(["info", url, "--timeout", "1"])
        #expect(result.status == 1)
        #expect(result.stderr == "zoetrope: \(url): the download did not finish within its deadline of 1 s\n")
        let bad = try ToolRunner.binary(["info", url, "--timeout", "0"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--timeout takes a number of seconds"))
    }

    /// The same bytes give the same output: a response past the limit gives the same
    /// report on every run (the body is cut at exactly the limit).
    @Test func aResponsePastTheLimitGivesTheSameLineEveryRun() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveEndless("endless.gif", chunk: 3_000)
        let fetch = ToolRunner.binary.deletingLastPathComponent().appendingPathComponent("zoetrope-fetch")
        var outputs: Set<String> = []
        for _ in 0..<3 {
            let (status, stdoutBytes, stderr, _) = try Self.run(fetch, [server.url("endless.gif").absoluteString, "--max-bytes", "100000"])
            #expect(status == 1)
            #expect(stdoutBytes == 100_000)
            outputs.insert(stderr)
        }
        #expect(
            outputs == ["\(server.url("endless.gif").absoluteString): the response is larger than the limit of 100000 bytes (maximumResponseBytes)\n"]
        )
    }

    /// An endless body sent as fast as loopback goes: the downloader writes exactly the
    /// limit and stops with the one-line error, and its peak memory is the limit plus what a
    /// run that downloads a small file holds (the transport reads only as the loader takes).
    /// GNU time reads the peak: a child spawned from this process directly would count this
    /// process's memory as its own (Linux keeps the peak of the image it replaced).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time (Debian's time)"))
    func anEndlessBodyEndsAtTheLimit() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveEndless("endless.gif", chunk: 256 << 10)
        server.serve("small.gif", .ok(Data(repeating: 0x47, count: 1000)))
        let fetch = ToolRunner.binary.deletingLastPathComponent().appendingPathComponent("zoetrope-fetch").path
        let limit = 16 << 20
        func peak(_ name: String) throws -> (Int32, Int, String, Int) {
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: report) }
            let arguments = ["-f", "%M", "-o", report.path, fetch, server.url(name).absoluteString, "--max-bytes", "\(limit)"]
            let (status, written, stderr, _) = try Self.run(URL(fileURLWithPath: "/usr/bin/time"), arguments)
            let text = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last ?? ""
            return (status, written, stderr, (Int(text) ?? 0) * 1024)
        }
        let (status, written, stderr, endless) = try peak("endless.gif")
        let (_, smallWritten, _, small) = try peak("small.gif")
        #expect(status == 1)
        #expect(written == limit)
        #expect(stderr.hasSuffix("the response is larger than the limit of 16777216 bytes (maximumResponseBytes)\n"))
        #expect(smallWritten == 1000)
        #expect(small > 0 && endless - small < limit * 3 / 2, "peak \(endless) bytes, \(small) for a 1000-byte body")
    }

    /// A response head cut short is one line, not a signal (it stops a process that reads
    /// it with URLSession on Linux: FoundationNetworking's own fatal error).
    @Test func aHeadCutShortIsOneLine() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.serveRaw("cut.gif", Data("HTTP/1.1 200 OK\r\nX-A: b".utf8))
        let url = server.url("cut.gif").absoluteString
        let result = try ToolRunner.binary(["info", url])
        #expect(result.status == 1)
        #expect(result.stderr == "zoetrope: \(url): the connection closed before the response head was complete\n")
    }

    /// Runs `executable` with `arguments`; its exit status, the bytes it wrote to standard
    /// output, its standard error and its peak resident bytes (the kernel's own count, from
    /// `wait4`: the child is spawned directly, so that nothing else reaps it).
    static func run(_ executable: URL, _ arguments: [String]) throws -> (Int32, Int, String, Int) {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw ToolError("pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        close(out[1])
        close(err[1])
        guard spawned == 0 else { throw ToolError("spawn \(spawned)") }
        let counted = Locked(0)
        let stdoutFD = out[0]
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(stdoutFD, &buffer, buffer.count)
                if n > 0 { counted.withLock { $0 += n } } else if n == 0 || errno != EINTR { break }
            }
        }
        reader.start()
        var errors = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(err[0], &buffer, buffer.count)
            if n > 0 { errors.append(contentsOf: buffer[0..<n]) } else if n == 0 || errno != EINTR { break }
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        while !reader.isFinished { usleep(1000) }
        close(out[0])
        close(err[0])
        return ((status >> 8) & 0xff, counted.withLock { $0 }, String(decoding: errors, as: UTF8.self), usage.ru_maxrss * 1024)
    }
}
