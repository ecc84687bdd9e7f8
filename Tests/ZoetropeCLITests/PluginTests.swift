import Foundation
import Testing

@testable import ZoetropeTool

/// Runs `swift package audit-animations` on Tests/Fixtures/AuditFixture, whose images
/// Scripts/make-audit-fixtures.py writes, and checks the table against what they hold.
///
/// The plugin knows formats only through the tool's registered coders, so each file is
/// expected as decoded when the tool's own `info` can decode it, and as a "cannot decode"
/// row otherwise (on a branch where that coder is not written yet).
@Suite(.serialized) struct PluginTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let fixture = packageRoot + "/Tests/Fixtures/AuditFixture"
    static let resources = fixture + "/Sources/AuditFixture/Resources"

    /// A build folder outside the source tree, stable per checkout so reruns are incremental.
    static var scratch: String {
        let hash = packageRoot.utf8.reduce(UInt64(5381)) { ($0 &* 33) &+ UInt64($1) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-audit-fixture-\(String(hash, radix: 16))").path
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Whether the fixture package and a `swift` on `PATH` are both here; otherwise the tests
    /// show as skipped.
    static var canRun: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let swift = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/swift") }
        return swift && FileManager.default.fileExists(atPath: fixture + "/Package.swift")
    }

    /// `swift package … audit-animations ARGS`, or nil when no `swift` can be started.
    static func plugin(_ args: [String]) throws -> Run? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "package", "--package-path", fixture, "--scratch-path", scratch, "audit-animations"] + args
        // Standard error goes to a file so that only one pipe needs draining.
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-plugin-\(UUID()).err").path
        guard FileManager.default.createFile(atPath: errPath, contents: nil),
            let errHandle = FileHandle(forWritingAtPath: errPath)
        else { return nil }
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = errHandle
        do { try p.run() } catch { return nil }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try? errHandle.close()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return Run(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Whether this build's coders decode `file` (what the plugin's tool will do too).
    static func decodes(_ file: String) -> Bool {
        ToolRun(["info", resources + "/" + file]).status == 0
    }

    @Test(.enabled(if: canRun, "no fixture package or no `swift` on PATH"))
    func jsonTableMatchesTheFixture() throws {
        let run = try #require(try Self.plugin(["--json"]), "cannot start `swift`")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        let files = try #require(report["files"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for f in files {
            let path = try #require(f["path"] as? String)
            #expect(path.hasPrefix("Sources/AuditFixture/Resources/"))
            byName[String(path.split(separator: "/").last!)] = f
        }
        // The source file and notes.txt are looked at but are not images.
        #expect(report["filesScanned"] as? Int == 9)
        #expect(byName["notes.txt"] == nil)
        #expect(byName["AuditFixture.swift"] == nil)

        // Sniffed from content, whatever the coders can decode.
        let formats = [
            "broken.gif": "gif", "huge.gif": "gif", "mislabeled.webp": "gif", "pulse.png": "apng",
            "single-frame.png": "apng", "spinner.gif": "gif",
        ]
        for (name, format) in formats {
            let row = try #require(byName[name], "\(name) missing from \(byName.keys.sorted())")
            #expect(row["format"] as? String == format, "\(name)")
        }
        let mislabeled = try #require(byName["mislabeled.webp"]?["warnings"] as? [String])
        #expect(mislabeled.contains("content is gif but the extension says webp"))
        #expect((byName["broken.gif"]?["error"] as? String)?.hasPrefix("cannot decode: ") == true)

        /// name: (width, height, frames, plays, display ms, clamped, all frames, one ahead, warnings besides the extension's)
        let expected: [String: (Int, Int, Int, String, Int, Int, Int, Int, [String])] = [
            "spinner.gif": (8, 8, 4, "infinite", 300, 2, 1024, 512, ["2 of 4 delays are 10 ms or less and play as 100 ms"]),
            "pulse.png": (6, 4, 3, "2", 300, 0, 288, 192, []),
            "mislabeled.webp": (4, 4, 2, "1", 200, 0, 128, 128, []),
            "single-frame.png": (3, 3, 1, "infinite", 500, 0, 36, 36, ["an animated apng holding a single frame"]),
            "huge.gif": (
                4096, 4096, 2, "infinite", 200, 0, 134_217_728, 134_217_728,
                ["decoding all frames takes 134,217,728 bytes (128 MiB), over 67,108,864 bytes (64 MiB)"]
            ),
        ]
        for (name, e) in expected {
            let row = try #require(byName[name])
            guard Self.decodes(name) else {
                print("PluginTests: this build cannot decode \(name); checking its error row only")
                #expect((row["error"] as? String)?.hasPrefix("cannot decode: ") == true, "\(name)")
                continue
            }
            #expect(row["error"] == nil, "\(name): \(row["error"] ?? "")")
            #expect(row["width"] as? Int == e.0, "\(name)")
            #expect(row["height"] as? Int == e.1, "\(name)")
            #expect(row["frameCount"] as? Int == e.2, "\(name)")
            let plays = (row["plays"] as? String) ?? (row["plays"] as? Int).map(String.init)
            #expect(plays == e.3, "\(name)")
            #expect(row["displayTotalDurationMs"] as? Int == e.4, "\(name)")
            #expect(row["clampedDelays"] as? Int == e.5, "\(name)")
            #expect(row["allFramesBytes"] as? Int == e.6, "\(name)")
            #expect(row["oneAheadBytes"] as? Int == e.7, "\(name)")
            let warnings = (row["warnings"] as? [String] ?? []).filter { !$0.hasPrefix("content is") }
            #expect(warnings == e.8, "\(name)")
        }
        // The plain PNG is listed only while it cannot be decoded; decoded, it is a counted still.
        if Self.decodes("still.png") {
            #expect(byName["still.png"] == nil)
            #expect(report["stillImages"] as? Int == 1)
        }
    }

    @Test(.enabled(if: canRun, "no fixture package or no `swift` on PATH"))
    func strictFailsOnTheFixturesWarningsAndPrintsTheTable() throws {
        let run = try #require(try Self.plugin(["--strict"]), "cannot start `swift`")
        #expect(run.status != 0)
        #expect(run.stderr.contains("audit-animations: warnings found (--strict)"))
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("PATH") == true)
        #expect(lines.first?.contains("ALL FRAMES  1 AHEAD  WARNINGS") == true)
        #expect(lines.contains { $0.hasPrefix("Sources/AuditFixture/Resources/spinner.gif ") })
        #expect(lines.last?.hasSuffix("9 files scanned") == true)
    }
}
