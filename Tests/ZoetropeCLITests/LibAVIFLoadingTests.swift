import Foundation
import Testing

/// libavif is opened on first use (CZoetropeAVIF): a process that never touches an AVIF
/// never loads it and its AV1 codecs, and a machine without it gets one clear error for
/// AVIF and everything else still works.
@Suite struct LibAVIFLoadingTests {
    /// The binary with `arguments` and extra environment variables.
    static func run(_ arguments: [String], environment: [String: String]) throws -> ToolRunner.Result {
        let p = Process()
        p.executableURL = ToolRunner.binary
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try ToolRunner.collect(p)
    }

    /// glibc's loader lists every library it opens, at start and through dlopen, on
    /// standard error under LD_DEBUG=libs.
    static var loaderReports: Bool {
        #if os(Linux) && canImport(Glibc)
        return true
        #else
        return false
        #endif
    }

    @Test(.enabled(if: loaderReports, "needs glibc's LD_DEBUG"))
    func aGIFConversionNeverLoadsLibavifAndAnAVIFOneDoes() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("in.gif")
        try ConvertFixtures.gif().write(to: gif)

        let webp = try Self.run(
            ["convert", gif.path, dir.appendingPathComponent("out.webp").path],
            environment: ["LD_DEBUG": "libs"])
        #expect(webp.status == 0)
        #expect(webp.stderr.contains("libwebp"), "the loader's report is there")
        #expect(!webp.stderr.contains("libavif"))
        #expect(!webp.stderr.contains("libdav1d"))

        let avif = try Self.run(
            ["convert", gif.path, dir.appendingPathComponent("out.avif").path],
            environment: ["LD_DEBUG": "libs"])
        #expect(avif.status == 0)
        #expect(avif.stderr.contains("find library=libavif.so"))
    }

    @Test func withoutLibavifAVIFFailsInOneLineAndTheOtherFormatsWork() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("in.gif"), avif = dir.appendingPathComponent("in.avif")
        try ConvertFixtures.gif().write(to: gif)
        #expect(try Self.run(["convert", gif.path, avif.path], environment: [:]).status == 0)
        let missing = ["ZOETROPE_LIBAVIF": "/nonexistent/libavif.so"]

        let info = try Self.run(["info", avif.path], environment: missing)
        #expect(info.status == 1)
        #expect(info.stdout.isEmpty)
        #expect(info.stderr.hasPrefix("zoetrope: \(avif.path): avif: libavif failed: libavif could not be loaded: /nonexistent/libavif.so: "))
        #expect(info.stderr.split(separator: "\n").count == 1)

        // Standard input goes through the incremental session: the same error.
        let p = Process()
        p.executableURL = ToolRunner.binary
        p.arguments = ["info", "-"]
        p.environment = ProcessInfo.processInfo.environment.merging(missing) { $1 }
        p.standardInput = try FileHandle(forReadingFrom: avif)
        let piped = try ToolRunner.collect(p)
        #expect(piped.status == 1)
        #expect(piped.stderr.hasPrefix("zoetrope: standard input: avif: libavif failed: libavif could not be loaded: /nonexistent/libavif.so: "))

        let out = dir.appendingPathComponent("again.avif")
        let encode = try Self.run(["convert", gif.path, out.path], environment: missing)
        #expect(encode.status == 1)
        #expect(encode.stderr.contains("libavif could not be loaded"))
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let webp = dir.appendingPathComponent("out.webp")
        #expect(try Self.run(["convert", gif.path, webp.path], environment: missing).status == 0)
        #expect(try Self.run(["info", webp.path], environment: missing).status == 0)
    }

    @Test(.enabled(if: loaderReports, "names a Linux library"))
    func aLibraryThatIsNotLibavifIsRefused() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("in.gif"), avif = dir.appendingPathComponent("in.avif")
        try ConvertFixtures.gif().write(to: gif)
        #expect(try Self.run(["convert", gif.path, avif.path], environment: [:]).status == 0)
        // libz is on every machine that runs the tool (libpng needs it) and is not libavif.
        let wrong = try Self.run(["info", avif.path], environment: ["ZOETROPE_LIBAVIF": "libz.so.1"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("libavif could not be loaded: libz.so.1 has no avifVersion: not libavif"))
    }
}
